import { MISSING_ROUTE_STATUSES } from './matchers'
import { applyProfile, type Profile, RouteMapping } from './profile'
import { errorReasons } from './reasons'

/** One probe request of the target: its answer's status and JSON body. */
export type Probe = (request: {
  method: string
  path: string
  body?: unknown
  /** The x-api-version to send; undefined sends none. */
  version: string | undefined
}) => Promise<{ status: number; json: unknown }>

/** What the runner learned of the target's paths and fields, and what it advises. */
export type Learned = {
  /** Where requests without a known version go (when the profile has version-only routes and does not say). */
  unversioned?: 'spec' | 'mapped' | undefined
  /** The target writes `destinationChainId` of a blanc route request as CAIP-2 (`eip155:8453`). */
  caip2DestinationChainId?: boolean | undefined
  /** What was learned and why, for the report. */
  notes: string[]
  /** Advice for the vendor (e.g. run with a profile), for the report. */
  hints: string[]
}

const BLANC = '2026-04.blanc'
const CHAIN_FIELD = /destinationChainId|eip155|caip/i

/** A refusal whose reasons are about the chain id's form. */
const aboutChainId = (answer: { status: number; json: unknown }) =>
  answer.status >= 400 && answer.status < 500 && CHAIN_FIELD.test(errorReasons(answer.json))

/**
 * Learns from the target what a profile leaves open: where requests without a known
 * `x-api-version` go (a header-less request to the spec's path that finds no route goes to the
 * version's mapped path), and whether the blanc route request's `destinationChainId` must be a
 * CAIP-2 id (the target refuses `8453` naming it and accepts `eip155:8453`). A target speaking
 * CAIP-2 under the `spec` profile gets a hint to use a profile instead.
 *
 * @example
 * const learned = await learnFromTarget(PUBLIC_PROFILE, probe, { destinationChainId: 8453, … })
 */
export async function learnFromTarget(
  profile: Profile,
  probe: Probe,
  routeRequest: { destinationChainId: number } & Record<string, unknown>,
): Promise<Learned> {
  const learned: Learned = { notes: [], hints: [] }
  const specPath = applyProfile(
    { ...profile, unversioned: 'spec' },
    { method: 'POST', path: '/intents/route' },
  )
  const mapped = applyProfile(profile, {
    method: 'POST',
    path: '/intents/route',
    version: 'blanc',
    body: routeRequest,
  })
  const versionOnly = profile.routes.some((route) => route.version !== undefined)
  const [headerless, quote] = await Promise.all([
    versionOnly && profile.unversioned === undefined
      ? probe({ method: specPath.method, path: specPath.path, body: {}, version: undefined })
      : undefined,
    probe({ method: mapped.method, path: mapped.path, body: mapped.body, version: BLANC }),
  ])
  if (headerless) {
    learned.unversioned = MISSING_ROUTE_STATUSES.includes(headerless.status) ? 'mapped' : 'spec'
    learned.notes.push(
      learned.unversioned === 'mapped'
        ? `requests without a known x-api-version go to the versions' mapped paths (the target answers ${headerless.status} to a header-less ${specPath.method} ${specPath.path})`
        : `requests without a known x-api-version keep the spec's paths (the target answers ${headerless.status} to a header-less ${specPath.method} ${specPath.path})`,
    )
  }
  if (aboutChainId(quote)) {
    const caip2 = { ...routeRequest, destinationChainId: `eip155:${routeRequest.destinationChainId}` }
    const retry = await probe({ method: mapped.method, path: mapped.path, body: caip2, version: BLANC })
    if (!aboutChainId(retry) && !MISSING_ROUTE_STATUSES.includes(retry.status)) {
      const why = `the target refuses destinationChainId ${routeRequest.destinationChainId} naming it and takes eip155:${routeRequest.destinationChainId} (answer ${retry.status})`
      if (mapped.mapping === undefined)
        learned.hints.push(
          `${why}: it speaks CAIP-2 chain ids, not the spec's numbers; judge it with --profile public, or a profile file whose route has caip2: { request: [/destinationChainId] }`,
        )
      else {
        learned.caip2DestinationChainId = true
        learned.notes.push(`blanc route requests send destinationChainId as CAIP-2 (${why})`)
      }
    }
  }
  return learned
}

/**
 * The profile with what was learned applied: the `unversioned` destination, and CAIP-2
 * `destinationChainId` on the blanc route request's mapping.
 *
 * @example
 * const profile = applyLearned(PUBLIC_PROFILE, { caip2DestinationChainId: true, notes: [], hints: [] })
 */
export function applyLearned(profile: Profile, learned: Learned): Profile {
  const routes = learned.caip2DestinationChainId
    ? profile.routes.map((route) =>
        route.spec === 'POST /intents/route' &&
        route.version !== 'alps' &&
        !route.caip2.request.includes('/destinationChainId')
          ? RouteMapping.parse({
              ...route,
              caip2: { ...route.caip2, request: [...route.caip2.request, '/destinationChainId'] },
            })
          : route,
      )
    : profile.routes
  return { ...profile, routes, unversioned: profile.unversioned ?? learned.unversioned }
}
