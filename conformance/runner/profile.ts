import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { parse } from 'yaml'
import { z } from 'zod'
import { methodsOf, ROUTES, type RouteDefinition } from '../../spec'
import { BaseError } from '../../spec/BaseError'
import { Version } from '../scenario/schema'

/** Thrown when `--profile` names no built-in profile and its file is missing or not valid. */
export class ProfileError extends BaseError {
  override name = 'Conformance.ProfileError'
}

const RouteLine = z
  .string()
  .regex(
    /^(GET|POST|PUT|PATCH|DELETE) \/\S*$/,
    'a route is "<METHOD> /path", with {name} for a path parameter',
  )

/** A JSON pointer whose `*` segment stands for every item of an array (`/operations/*\/chain`). */
const PointerPattern = z.string().startsWith('/', 'a JSON pointer starts with /')

/** How one of the spec's routes is served by the target. */
export const RouteMapping = z.strictObject({
  /** The spec's route, e.g. `POST /intents/{intentId}/submit`. */
  spec: RouteLine,
  /** The target's route, e.g. `POST /intents`; `{name}` takes the spec path's parameter of that name. */
  target: RouteLine,
  /**
   * Only for requests of this version: a request that speaks the other version keeps the spec's
   * path. One without a known version (no `x-api-version`, or an unknown or malformed one) goes
   * where the profile's `unversioned` says, both alike.
   */
  version: Version.optional(),
  /** Path parameters the target takes as fields of the JSON body instead (e.g. `intentId`). */
  pathParamsInBody: z.array(z.string().min(1)).default([]),
  /** Where the target writes chain ids as CAIP-2 (`eip155:<chain_id>`) instead of numbers. */
  caip2: z
    .strictObject({
      /** Request body fields the runner sends as `eip155:<n>` (e.g. `/destinationChainId`). */
      request: z.array(PointerPattern).default([]),
      /** Response fields the runner reads as chain ids in either form (e.g. `/operations/*\/chain`). */
      response: z.array(PointerPattern).default([]),
    })
    .default({ request: [], response: [] }),
})
export type RouteMapping = z.infer<typeof RouteMapping>

/** A `--profile FILE` (YAML or JSON): how the target's paths differ from the spec's. */
export const ProfileFile = z.strictObject({
  /** The profile's name, as reports print it. */
  name: z.string().min(1),
  /** A built-in profile whose routes apply after this file's (default `spec`: none). */
  extends: z.enum(['spec', 'public']).default('spec'),
  /** Prefixed to every path the target serves (mapped or not), except the devnet's `/_devnet/`. */
  basePath: z
    .string()
    .regex(/^(\/[^/?#\s]+)+$/, 'a base path is like /api/v2 (no trailing slash)')
    .optional(),
  routes: z.array(RouteMapping).default([]),
  /**
   * Where a request without a known `x-api-version` goes when a route is for one version only:
   * `spec` (the spec's path: the target serves such requests as the other version there, or
   * refuses them), `mapped` (the version's path). Default: learned from the target (a header-less
   * request to the spec's path that finds no route goes to the mapped one).
   */
  unversioned: z.enum(['spec', 'mapped']).optional(),
})
export type ProfileFile = z.infer<typeof ProfileFile>

/** The paths a target serves: the spec's, mapped by routes tried in order. */
export type Profile = {
  /** `spec`, `public`, or a file's name with its file (`vendor (vendor.yaml)`). */
  name: string
  basePath?: string | undefined
  routes: RouteMapping[]
  /** Where requests without a known version go on version-only routes (see ProfileFile); undefined: learn, else `spec`. */
  unversioned?: 'spec' | 'mapped' | undefined
}

/** The spec's own paths (the default). */
export const SPEC_PROFILE: Profile = { name: 'spec', routes: [] }

/**
 * The public service's paths (facts §1), derived from the route table (spec/routes): each alias
 * route (`aliasOf`) maps its spec route to the alias's path, for the alias's version, with the
 * path parameters it takes in the body; a route the public service serves at the spec's own path
 * but with CAIP-2 chain ids (`caip2`) maps to itself. Today: blanc quotes at `POST /quotes`, the
 * blanc submit at `POST /intents` with the intent id in the body, the blanc status at
 * `GET /intents/{id}` (whose `operations[].chain` may be a CAIP-2 chain id). alps keeps the
 * spec's paths.
 */
export const PUBLIC_PROFILE: Profile = { name: 'public', routes: publicRoutes() }

function publicRoutes(): RouteMapping[] {
  const line = (route: RouteDefinition) => `${methodsOf(route)[0]} ${route.path}`
  const caip2 = (route: RouteDefinition) => ({
    request: [...(route.caip2?.request ?? [])],
    response: [...(route.caip2?.response ?? [])],
  })
  const routes = ROUTES as Record<string, RouteDefinition>
  return Object.values(routes).flatMap((route) => {
    if (route.aliasOf) {
      const spec = routes[route.aliasOf.route]
      if (!spec)
        throw new Error(`The route table's alias ${route.path} names no route ${route.aliasOf.route}.`)
      return [
        RouteMapping.parse({
          spec: line(spec),
          target: line(route),
          ...(route.aliasOf.version ? { version: route.aliasOf.version } : {}),
          pathParamsInBody: [...(route.aliasOf.pathParamsInBody ?? [])],
          caip2: caip2(route),
        }),
      ]
    }
    if (route.caip2)
      return [RouteMapping.parse({ spec: line(route), target: line(route), caip2: caip2(route) })]
    return []
  })
}

const BUILT_IN = { spec: SPEC_PROFILE, public: PUBLIC_PROFILE } as const

/**
 * The profile `--profile` names: `spec`, `public`, or a YAML/JSON profile file.
 *
 * @example
 * const profile = await loadProfile('public')
 * const mapped = applyProfile(profile, { method: 'POST', path: '/intents/route', version: 'blanc', body: {} })
 */
export async function loadProfile(nameOrFile: string | undefined): Promise<Profile> {
  if (nameOrFile === undefined) return SPEC_PROFILE
  if (Object.hasOwn(BUILT_IN, nameOrFile)) return BUILT_IN[nameOrFile as keyof typeof BUILT_IN]
  let text: string
  try {
    text = await readFile(nameOrFile, 'utf8')
  } catch (cause) {
    throw new ProfileError(`--profile ${nameOrFile} is neither spec, public, nor a readable file.`, { cause })
  }
  let raw: unknown
  try {
    raw = parse(text)
  } catch (cause) {
    throw new ProfileError(`The profile ${nameOrFile} is not valid YAML or JSON.`, { cause })
  }
  const result = ProfileFile.safeParse(raw)
  if (!result.success)
    throw new ProfileError(
      `The profile ${nameOrFile} is not valid: ${result.error.issues
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ')}.`,
    )
  const file = result.data
  return {
    name: `${file.name} (${basename(nameOrFile)})`,
    basePath: file.basePath,
    routes: [...file.routes, ...BUILT_IN[file.extends].routes],
    unversioned: file.unversioned,
  }
}

/** A request before and after the profile maps it. */
export type ProfiledRequest = {
  method: string
  /** The path, query string included. */
  path: string
  /** The version the request speaks, when it speaks a known one. */
  version?: Version | 'other' | undefined
  /** The JSON body as a value (undefined: none, or not JSON). */
  body?: unknown
}

/** What {@link applyProfile} gives back: the target's request, and how to read its answer. */
export type MappedRequest = {
  method: string
  path: string
  body?: unknown
  /** Response fields that may carry CAIP-2 chain ids (read as numbers). */
  caip2Response: string[]
  /** The mapping applied, e.g. `POST /intents/route → POST /quotes`; undefined when none did. */
  mapping?: string | undefined
}

/**
 * The request the target gets for one of the spec's: the first route of the profile whose spec
 * route matches (method, path template and version) gives the target's method and path, moves
 * path parameters into the body and writes chain ids as CAIP-2 where it says; then the base path.
 * `/_devnet/` paths are never mapped.
 *
 * @example
 * applyProfile(PUBLIC_PROFILE, { method: 'POST', path: '/intents/7/submit', body: { signatures } })
 * // { method: 'POST', path: '/intents', body: { intentId: '7', signatures }, caip2Response: [], mapping: '…' }
 */
export function applyProfile(profile: Profile, request: ProfiledRequest): MappedRequest {
  const [pathOnly = '', query] = splitQuery(request.path)
  const base = (path: string) =>
    `${profile.basePath && !pathOnly.startsWith('/_devnet/') ? profile.basePath : ''}${path}${query ?? ''}`
  if (pathOnly.startsWith('/_devnet/'))
    return { method: request.method, path: request.path, body: request.body, caip2Response: [] }
  for (const route of profile.routes) {
    // The other version keeps the spec's path. A request without a known version (none, unknown
    // or malformed: 'other' and undefined alike) goes where the profile says (learned by default).
    if (route.version && request.version !== route.version) {
      if (request.version === 'alps' || request.version === 'blanc') continue
      if (profile.unversioned !== 'mapped') continue
    }
    const [specMethod, specPath = ''] = route.spec.split(' ')
    if (specMethod !== request.method) continue
    const params = matchTemplate(specPath, pathOnly)
    if (!params) continue
    const [targetMethod = request.method, targetTemplate = ''] = route.target.split(' ')
    const path = targetTemplate.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(params[name] ?? `{${name}}`),
    )
    let body = request.body
    if (route.pathParamsInBody.length > 0 || route.caip2.request.length > 0) {
      if (isObject(body) || (body === undefined && route.pathParamsInBody.length > 0)) {
        const copy: Record<string, unknown> = structuredClone((body ?? {}) as Record<string, unknown>)
        for (const name of route.pathParamsInBody) if (name in params) copy[name] = params[name]
        for (const pointer of route.caip2.request)
          rewriteAt(copy, pointer, (value) =>
            typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))
              ? `eip155:${value}`
              : value,
          )
        body = copy
      }
    }
    return {
      method: targetMethod,
      path: base(path),
      body,
      caip2Response: route.caip2.response,
      mapping: `${route.spec}${route.version ? ` (${request.version === route.version ? route.version : 'without a known version'})` : ''} → ${route.target}${
        route.caip2.request.length > 0 ? `; ${route.caip2.request.join(', ')} as eip155:<n>` : ''
      }${route.pathParamsInBody.length > 0 ? `; ${route.pathParamsInBody.join(', ')} in the body` : ''}${
        route.caip2.response.length > 0 ? `; ${route.caip2.response.join(', ')} read as CAIP-2` : ''
      }`,
    }
  }
  return { method: request.method, path: base(pathOnly), body: request.body, caip2Response: [] }
}

/**
 * A response body with the chain ids at `pointers` read as numbers where the target wrote them
 * as CAIP-2 (`eip155:8453` → 8453); other values are left as they are, so a check still fails on them.
 */
export function normalizeCaip2(json: unknown, pointers: readonly string[]): unknown {
  if (pointers.length === 0 || !isObject(json)) return json
  const copy = structuredClone(json)
  for (const pointer of pointers)
    rewriteAt(copy, pointer, (value) => {
      const match = typeof value === 'string' ? /^eip155:(\d+)$/.exec(value) : null
      return match ? Number(match[1]) : value
    })
  return copy
}

function splitQuery(path: string): [string, string | undefined] {
  const at = path.indexOf('?')
  return at === -1 ? [path, undefined] : [path.slice(0, at), path.slice(at)]
}

/** The parameters of a path matching a template (`/intents/{id}`), or undefined. */
function matchTemplate(template: string, path: string): Record<string, string> | undefined {
  const names: string[] = []
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part)
      if (!param) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      names.push(param[1]!)
      return '([^/]+)'
    })
    .join('')
  const match = new RegExp(`^${source}$`).exec(path)
  if (!match) return undefined
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]))
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Rewrites, in place, every value at a JSON pointer (`*` = each array item) that exists. */
function rewriteAt(root: unknown, pointer: string, rewrite: (value: unknown) => unknown): void {
  const segments = pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
  const walk = (node: unknown, index: number): void => {
    const segment = segments[index]!
    const last = index === segments.length - 1
    const keys =
      segment === '*'
        ? Array.isArray(node)
          ? node.map((_, i) => i)
          : []
        : Array.isArray(node)
          ? /^\d+$/.test(segment) && Number(segment) < node.length
            ? [Number(segment)]
            : []
          : isObject(node) && Object.hasOwn(node, segment)
            ? [segment]
            : []
    for (const key of keys) {
      const holder = node as Record<string | number, unknown>
      if (last) holder[key] = rewrite(holder[key])
      else walk(holder[key], index + 1)
    }
  }
  if (segments.length > 0) walk(root, 0)
}
