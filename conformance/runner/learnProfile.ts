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

/** Request fields of one of the spec's routes that the target takes as CAIP-2 chain ids. */
export type LearnedCaip2 = {
  /** The spec's route, e.g. `POST /intents/route`. */
  route: string
  /** Only for requests of this version (the route's mapping is for it); undefined: every version. */
  version?: 'alps' | 'blanc' | undefined
  /** JSON pointers (`*` for every item) the runner sends as `eip155:<n>`. */
  pointers: string[]
}

/** What the runner learned of the target's paths and fields, and what it advises. */
export type Learned = {
  /** Where requests without a known version go (when the profile has version-only routes and does not say). */
  unversioned?: 'spec' | 'mapped' | undefined
  /** Request fields the target takes as CAIP-2 (`eip155:8453`) instead of the spec's numbers, by route. */
  caip2Request?: LearnedCaip2[] | undefined
  /** What was learned and why, for the report. */
  notes: string[]
  /** Advice for the vendor (e.g. run with a profile), for the report. */
  hints: string[]
}

const VERSION_HEADER = { alps: '2026-01.alps', blanc: '2026-04.blanc' } as const
const CHAIN_FIELD = /chainIds?\b|chain id|eip155|caip/i

/** A refusal whose reasons are about a chain id's form. */
const aboutChainId = (answer: { status: number; json: unknown }) =>
  answer.status >= 400 && answer.status < 500 && CHAIN_FIELD.test(errorReasons(answer.json))
/** An answer that takes the request (or refuses it for something else than its chain ids). */
const takes = (answer: { status: number; json: unknown }) =>
  !aboutChainId(answer) && !MISSING_ROUTE_STATUSES.includes(answer.status) && answer.status < 500

/** A route request valid by the spec, as the runner probes the target with it. */
export type RouteRequestProbe = { destinationChainId: number } & Record<string, unknown>

/**
 * The spec's routes whose request carries chain ids as numbers, where a target may take CAIP-2
 * instead: each is probed with a request valid by the spec, and learned when the target refuses
 * the numbers naming a chain id and takes `eip155:<n>` (the public blanc API writes chain ids so).
 * The others are not probed, each for its reason:
 * - `POST /intents/route` in alps: the public SDK 1.x sends numbers; nothing to learn.
 * - `POST /intents/{intentId}/submit` (`POST /intents`), `POST /intent-operations`: no chain id
 *   the runner writes (signatures; the target's own intentOp sent back as it gave it).
 * - `GET /intents/{id}`, `GET /intent-operation/{id}`: answers, read in either form where the
 *   route table says a chain id may be CAIP-2 (`operations[].chain`).
 * - `POST /deposit-processor/setup`: the spec's own keys are CAIP-2 already.
 * - `POST /deposit-processor/register` (the public service's): probing it registers an account; a
 *   target that refuses its `targetChainId` makes the deposit scenarios not applicable, saying so.
 * - Chain ids as object keys (`preClaimExecutions`, `chainTokens`): "`chainId` in maps is a key
 *   given as a decimal string", and no public shape says otherwise.
 */
export function chainIdRoutes(routeRequest: RouteRequestProbe) {
  const account = '0x000000000000000000000000000000000000dEaD'
  const token = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
  return [
    {
      route: 'POST /intents/route',
      version: 'blanc' as const,
      pointers: [
        '/destinationChainId',
        '/accountAccessList/chainIds/*',
        '/accountAccessList/exclude/chainIds/*',
      ],
      body: {
        ...routeRequest,
        accountAccessList: { chainIds: [routeRequest.destinationChainId], exclude: { chainIds: [1] } },
      },
    },
    {
      route: 'POST /withdrawals',
      pointers: ['/chainId'],
      body: { account, chainId: 8453, tokenAddress: token, amount: 1, recipient: account },
    },
    {
      route: 'POST /batch-withdrawals',
      pointers: ['/chainId'],
      body: { account, chainId: 8453, transfers: [{ recipient: account, tokenAddress: token, amount: 1 }] },
    },
  ]
}

/** The body with the chain ids at `pointers` written as CAIP-2 (`eip155:<n>`). */
function asCaip2(route: string, version: 'alps' | 'blanc' | undefined, pointers: string[], body: unknown) {
  const [method = 'POST', path = '/'] = route.split(' ')
  return applyProfile(
    {
      name: 'probe',
      routes: [RouteMapping.parse({ spec: route, target: route, caip2: { request: pointers } })],
    },
    { method, path, version, body },
  ).body
}

/**
 * Learns from the target what a profile leaves open: where requests without a known
 * `x-api-version` go (a header-less request to the spec's path that finds no route goes to the
 * version's mapped path), and which request fields of {@link chainIdRoutes} it takes as CAIP-2
 * ids (it refuses the numbers naming a chain id and takes `eip155:<n>`; the fewest fields that
 * make it take the request, tried smallest set first). A target speaking CAIP-2 under the `spec` profile gets a hint to use
 * a profile instead.
 *
 * @example
 * const learned = await learnFromTarget(PUBLIC_PROFILE, probe, { destinationChainId: 8453, … })
 */
export async function learnFromTarget(
  profile: Profile,
  probe: Probe,
  routeRequest: RouteRequestProbe,
): Promise<Learned> {
  const learned: Learned = { notes: [], hints: [] }
  const specPath = applyProfile(
    { ...profile, unversioned: 'spec' },
    { method: 'POST', path: '/intents/route' },
  )
  const versionOnly = profile.routes.some((route) => route.version !== undefined)
  const [headerless, ...caip2] = await Promise.all([
    versionOnly && profile.unversioned === undefined
      ? probe({ method: specPath.method, path: specPath.path, body: {}, version: undefined })
      : undefined,
    ...chainIdRoutes(routeRequest).map((route) => learnCaip2(profile, probe, route)),
  ])
  if (headerless) {
    learned.unversioned = MISSING_ROUTE_STATUSES.includes(headerless.status) ? 'mapped' : 'spec'
    learned.notes.push(
      learned.unversioned === 'mapped'
        ? `requests without a known x-api-version go to the versions' mapped paths (the target answers ${headerless.status} to a header-less ${specPath.method} ${specPath.path})`
        : `requests without a known x-api-version keep the spec's paths (the target answers ${headerless.status} to a header-less ${specPath.method} ${specPath.path})`,
    )
  }
  for (const found of caip2) {
    if (!found) continue
    const { route, version, pointers, why } = found
    // The spec's own paths judge by the spec's words (numbers); a profile maps what it learned.
    if (profile.routes.length === 0)
      learned.hints.push(
        `${why}: it speaks CAIP-2 chain ids, not the spec's numbers; judge it with --profile public, or a profile file whose route ${route} has caip2: { request: [${pointers.join(', ')}] }`,
      )
    else {
      learned.caip2Request = [...(learned.caip2Request ?? []), { route, version, pointers }]
      learned.notes.push(
        `${route}${version ? ` (${version})` : ''} requests send ${pointers.join(', ')} as CAIP-2 (${why})`,
      )
    }
  }
  return learned
}

/** Which chain-id fields of one route the target takes as CAIP-2 only, and why; undefined: none. */
async function learnCaip2(
  profile: Profile,
  probe: Probe,
  candidate: ReturnType<typeof chainIdRoutes>[number],
): Promise<(LearnedCaip2 & { why: string }) | undefined> {
  const { route, pointers, body } = candidate
  const version = 'version' in candidate ? candidate.version : undefined
  const [method = 'POST', path = '/'] = route.split(' ')
  const mapped = applyProfile(profile, { method, path, version: version ?? 'blanc', body })
  const send = (sent: unknown) =>
    probe({
      method: mapped.method,
      path: mapped.path,
      body: sent,
      version: VERSION_HEADER[version ?? 'blanc'],
    })
  const numbers = await send(mapped.body)
  if (!aboutChainId(numbers)) return undefined
  // The fewest fields as CAIP-2 that the target takes (a target may want some in each form).
  let needed: string[] | undefined
  let answer = numbers
  for (const subset of subsetsBySize(pointers)) {
    answer = await send(asCaip2(route, version, subset, mapped.body))
    if (takes(answer)) {
      needed = subset
      break
    }
  }
  if (needed === undefined) return undefined
  return {
    route,
    version,
    pointers: needed,
    why: `the target answers ${numbers.status} to the spec's numbers naming a chain id, and ${answer.status} to eip155:<n> at ${needed.join(', ')}`,
  }
}

/** Every non-empty subset of `items`, the smallest first (in the items' order within a size). */
function subsetsBySize(items: string[]): string[][] {
  const subsets = Array.from({ length: 2 ** items.length - 1 }, (_, i) =>
    items.filter((_, bit) => ((i + 1) >> bit) & 1),
  )
  return subsets.sort((a, b) => a.length - b.length)
}

/**
 * The profile with what was learned applied: the `unversioned` destination, and CAIP-2 request
 * fields on each route's mapping (a route the profile does not map gets one to itself).
 *
 * @example
 * const profile = applyLearned(PUBLIC_PROFILE, { caip2Request: [{ route: 'POST /withdrawals', pointers: ['/chainId'] }], notes: [], hints: [] })
 */
export function applyLearned(profile: Profile, learned: Learned): Profile {
  let routes = profile.routes
  for (const { route, version, pointers } of learned.caip2Request ?? []) {
    const applies = (mapping: RouteMapping) =>
      mapping.spec === route &&
      (version === undefined || mapping.version !== (version === 'blanc' ? 'alps' : 'blanc'))
    const add = (mapping: RouteMapping) =>
      RouteMapping.parse({
        ...mapping,
        caip2: {
          ...mapping.caip2,
          request: [...new Set([...mapping.caip2.request, ...pointers])],
        },
      })
    routes = routes.some(applies)
      ? routes.map((mapping) => (applies(mapping) ? add(mapping) : mapping))
      : [
          RouteMapping.parse({
            spec: route,
            target: route,
            ...(version ? { version } : {}),
            caip2: { request: pointers },
          }),
          ...routes,
        ]
  }
  return { ...profile, routes, unversioned: profile.unversioned ?? learned.unversioned }
}
