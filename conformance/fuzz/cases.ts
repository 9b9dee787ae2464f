import fc from 'fast-check'
import type { z } from 'zod'
import { PRE_CLAIM_MAX_CHAINS, PRE_CLAIM_MAX_OPS_PER_CHAIN } from '../../spec/route'
import type { HttpExpect, HttpStep } from '../scenario/schema'
import { arbitraryOf, coherent, type Hints } from './fromSchema'
import { MUTATIONS, mutate, sitesOf } from './mutate'
import {
  atLimitExpectation,
  BAD_VERSION_HEADER,
  invalidExpectation,
  otherVersionPathExpectation,
  overLimitExpectation,
  type PropertyName,
  unauthorizedExpectation,
  validExpectation,
} from './properties'
import type { FuzzRoute, FuzzVersion } from './routes'

/**
 * The stateless cases: one request each, generated from a route's schemas, with the property it
 * tests and that property's expectation. Whether an input is valid is the contract's call: the
 * route's request schemas parse it, and their issues name the fields a refusal must name.
 */

/** One generated request with what it must answer. */
export type FuzzCase = {
  route: string
  property: PropertyName
  /** What makes it interesting, e.g. `tokenRequests.0.amount: negative`. */
  description: string
  step: HttpStep
  /**
   * The same request without the change that makes it invalid: when the target refuses both
   * for the same reasons (a domain refusal, such as an unfunded account), the case says
   * nothing of the change, and is not a finding.
   */
  control?: HttpStep | undefined
}

/** What the cases are generated for. */
export type CaseSpace = {
  routes: readonly FuzzRoute[]
  /** The versions the target serves (and the run speaks). */
  versions: readonly FuzzVersion[]
  hints: Hints
}

type Parts = { params: Record<string, string>; query: Record<string, string>; body: unknown }

/** Strings are sent as given, but a scenario reads `${…}` as a variable: the fuzzer never sends one. */
function sanitize(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('${', '$ {')
  if (Array.isArray(value)) return value.map(sanitize)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replaceAll('${', '$ {'), sanitize(v)]))
  return value
}

const asStrings = (value: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries((value ?? {}) as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => [k, String(v)]),
  )

/** The valid parts of a request to a route: params, query and body from its schemas. */
function partsArbitrary(route: FuzzRoute, hints: Hints): fc.Arbitrary<Parts> {
  const { params, querystring, body } = route.request
  return fc.record({
    params: params ? arbitraryOf(params, hints).map(asStrings) : fc.constant({}),
    query: querystring ? arbitraryOf(querystring, hints).map(asStrings) : fc.constant({}),
    body: body
      ? arbitraryOf(body, hints).map((value) => sanitize(coherent(value, hints)))
      : fc.constant(undefined),
  })
}

/** The field names a refusal of these issues must name: each issue's last property name. */
function namedFields(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    const name = [...issue.path].reverse().find((p) => typeof p === 'string' && !/^\d+$/.test(p))
    return typeof name === 'string' ? [name] : []
  })
}

/** The issues of a request's parts by the route's schemas (none: the request is valid). */
export function issuesOf(route: FuzzRoute, parts: Parts): z.core.$ZodIssue[] {
  const { params, querystring, body } = route.request
  return [
    ...(params ? (params.safeParse(parts.params).error?.issues ?? []) : []),
    ...(querystring ? (querystring.safeParse(parts.query).error?.issues ?? []) : []),
    ...(body ? (body.safeParse(parts.body).error?.issues ?? []) : []),
  ]
}

/** The concrete path of a route: its parameters filled in (encoded), and the query. */
function concretePath(route: FuzzRoute, parts: Parts): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(parts.params[name] ?? 'x'),
  )
  const query = new URLSearchParams(parts.query).toString()
  return query ? `${path}?${query}` : path
}

function step(
  route: FuzzRoute,
  parts: Parts,
  version: HttpStep['http']['version'],
  expect: HttpExpect,
  name: string,
  apiKey: HttpStep['http']['apiKey'] = 'default',
): HttpStep {
  return {
    name,
    http: {
      method: route.method,
      path: concretePath(route, parts),
      apiKey,
      version,
      ...(parts.body !== undefined && route.method !== 'GET' && { body: parts.body }),
    },
    expect,
  }
}

/** A case from parts: valid by the schemas (response-schema) or not (invalid-input, naming the fields). */
function judged(
  route: FuzzRoute,
  version: FuzzVersion,
  parts: Parts,
  description: string,
  control?: Parts,
): FuzzCase {
  const issues = issuesOf(route, parts)
  const label = `${route.method} ${route.path} (${version}) ${description}`
  if (issues.length === 0)
    return {
      route: route.id,
      property: 'response-schema',
      description,
      step: step(route, parts, version, validExpectation(route, version), label),
    }
  return {
    route: route.id,
    property: 'invalid-input',
    description,
    step: step(route, parts, version, invalidExpectation(version, namedFields(issues), route), label),
    ...(control && {
      control: step(
        route,
        control,
        version,
        validExpectation(route, version),
        `${label}, without the change`,
      ),
    }),
  }
}

const NASTY_STRINGS = ['-1', '1.5', 'abc', '9'.repeat(100), 'Ω✓😀', '0x', ' ', '%00'] as const

/** A request with one change at one place of its valid parts. */
function mutatedCase(
  route: FuzzRoute,
  version: FuzzVersion,
  valid: fc.Arbitrary<Parts>,
): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      parts: valid,
      part: fc.nat(2),
      site: fc.nat(63),
      kind: fc.nat(MUTATIONS.length - 1),
      pick: fc.nat(23),
    })
    .map(({ parts, part, site, kind, pick }) => {
      const names = (['body', 'query', 'params'] as const).filter((name) =>
        name === 'body'
          ? route.request.body
          : name === 'query'
            ? route.request.querystring
            : route.request.params,
      )
      const which = names[part % Math.max(1, names.length)]
      if (which === 'query' || which === 'params') {
        const keys = Object.keys(parts[which])
        const key =
          keys.length > 0 && which === 'params'
            ? keys[site % keys.length]!
            : (keys[site % (keys.length + 1)] ?? 'limit')
        const value = NASTY_STRINGS[pick % NASTY_STRINGS.length]!
        return judged(
          route,
          version,
          { ...parts, [which]: { ...parts[which], [key]: value } },
          `${which} ${key}: ${JSON.stringify(value)}`,
          parts,
        )
      }
      const sites = sitesOf(route.request.body, parts.body)
      const at = sites[site % sites.length]!
      for (let i = 0; i < MUTATIONS.length; i++) {
        const mutated = mutate(parts.body, at, MUTATIONS[(kind + i) % MUTATIONS.length]!, pick)
        if (mutated)
          return judged(route, version, { ...parts, body: mutated.value }, mutated.description, parts)
      }
      return judged(route, version, parts, 'unchanged')
    })
}

/** preClaimExecutions at its limits: 10 and 11 operations on a chain, 5 and 6 chains (spec: Limits). */
function limitCase(
  route: FuzzRoute,
  version: FuzzVersion,
  valid: fc.Arbitrary<Parts>,
  hints: Hints,
): fc.Arbitrary<FuzzCase> {
  const chains = hints.chainIds.length > 0 ? hints.chainIds : [1, 10, 8453]
  return fc
    .record({
      parts: valid,
      perChain: fc.boolean(),
      over: fc.boolean(),
      to: fc.constantFrom(
        ...(hints.accounts.length > 0 ? hints.accounts : ['0x000000000000000000000000000000000000dEaD']),
      ),
    })
    .map(({ parts, perChain, over, to }) => {
      const op = { to, value: '0', data: '0x' }
      const count = (perChain ? PRE_CLAIM_MAX_OPS_PER_CHAIN : PRE_CLAIM_MAX_CHAINS) + (over ? 1 : 0)
      const keys = perChain
        ? [String(chains[0])]
        : Array.from({ length: count }, (_, i) => String(chains[i] ?? 100_000 + i))
      const preClaimExecutions = Object.fromEntries(
        keys.map((key) => [key, Array.from({ length: perChain ? count : 1 }, () => op)]),
      )
      // A request the target can quote (its funded account, a token of the destination chain),
      // so that the answer is about the limit and nothing else.
      const destination = chains[0]!
      const token =
        hints.tokensByChain?.[destination]?.USDC ?? Object.values(hints.tokensByChain?.[destination] ?? {})[0]
      const quotable =
        token && hints.accounts[0]
          ? {
              destinationChainId: destination,
              tokenRequests: [{ tokenAddress: token, amount: '1000' }],
              account: { address: hints.accounts[0], accountType: 'EOA' },
            }
          : (parts.body as object)
      const body = { ...quotable, preClaimExecutions }
      const description = `preClaimExecutions: ${perChain ? `${count} operations on a chain` : `${count} chains`}`
      // Over the limit, the control is the same request at the limit.
      const atLimit = Object.fromEntries(
        Object.entries(preClaimExecutions).map(([key, ops]) => [key, perChain && over ? ops.slice(1) : ops]),
      )
      const control = {
        ...parts,
        body: {
          ...(parts.body as object),
          preClaimExecutions: perChain
            ? atLimit
            : Object.fromEntries(Object.entries(atLimit).slice(over ? 1 : 0)),
        },
      }
      const base = judged(route, version, { ...parts, body }, description, control)
      // A body refused for something else is no test of the limit.
      if (issuesOf(route, { ...parts, body: quotable }).length > 0) return base
      const limit = perChain ? PRE_CLAIM_MAX_OPS_PER_CHAIN : PRE_CLAIM_MAX_CHAINS
      const expect = over
        ? overLimitExpectation(version, 'preClaimExecutions', limit)
        : atLimitExpectation(route, version, 'preClaimExecutions')
      return { ...base, property: over ? 'limit-over' : 'limit-at-value', step: { ...base.step, expect } }
    })
}

/** A valid request without a key, or with a wrong one. */
function keyCase(route: FuzzRoute, version: FuzzVersion, valid: fc.Arbitrary<Parts>): fc.Arbitrary<FuzzCase> {
  return fc.record({ parts: valid, wrong: fc.boolean() }).map(({ parts, wrong }) => {
    const apiKey = wrong ? 'wrong' : 'omit'
    const description = wrong ? 'a wrong x-api-key' : 'no x-api-key'
    return {
      route: route.id,
      property: 'key-required' as const,
      description,
      step: step(
        route,
        parts,
        version,
        unauthorizedExpectation(version),
        `${route.method} ${route.path} (${version}) ${description}`,
        apiKey,
      ),
    }
  })
}

/** A request with an unknown or malformed x-api-version, or in a version that does not serve the path. */
function versionCase(route: FuzzRoute, space: CaseSpace, valid: fc.Arbitrary<Parts>): fc.Arbitrary<FuzzCase> {
  const other = space.versions.filter((v) => !route.versions.includes(v))
  const raw = fc.oneof(
    fc.stringMatching(/^20[3-9]\d-(0[1-9]|1[0-2])\.[a-z]{3,8}$/),
    fc.constantFrom('2026-01', 'alps', '2026-1.alps', '2026-01.ALPS', '2026-01.alps;', 'v2'),
  )
  return fc.record({ parts: valid, raw, otherVersion: fc.boolean() }).map(({ parts, raw, otherVersion }) => {
    if (otherVersion && other.length > 0) {
      const version = other[0]!
      const description = `${version} does not serve this path`
      return {
        route: route.id,
        property: 'version-header' as const,
        description,
        step: step(
          route,
          parts,
          version,
          otherVersionPathExpectation(version),
          `${route.method} ${route.path} (${version}) ${description}`,
        ),
      }
    }
    const description = `x-api-version ${JSON.stringify(raw)}`
    return {
      route: route.id,
      property: 'version-header' as const,
      description,
      step: step(route, parts, { raw }, BAD_VERSION_HEADER, `${route.method} ${route.path} ${description}`),
    }
  })
}

/**
 * Every stateless case of a run: by route and version, valid requests, one-change variants,
 * the limits, the key and the version header, weighted towards the invalid.
 *
 * @example
 * fc.sample(caseArbitrary({ routes: FUZZ_ROUTES, versions: ['alps', 'blanc'], hints }), 3)
 */
export function caseArbitrary(space: CaseSpace): fc.Arbitrary<FuzzCase> {
  const built = new Map<FuzzRoute, fc.Arbitrary<Parts>>()
  const parts = (route: FuzzRoute) => {
    let arbitrary = built.get(route)
    if (!arbitrary) {
      arbitrary = partsArbitrary(route, space.hints)
      built.set(route, arbitrary)
    }
    return arbitrary
  }
  const perRoute = space.routes.flatMap((route) =>
    route.versions
      .filter((version) => space.versions.includes(version))
      .map((version) => {
        const kinds: fc.WeightedArbitrary<FuzzCase>[] = [
          { weight: 6, arbitrary: mutatedCase(route, version, parts(route)) },
          {
            weight: 2,
            arbitrary: parts(route).map((valid) => judged(route, version, valid, 'as generated')),
          },
          { weight: 1, arbitrary: keyCase(route, version, parts(route)) },
          { weight: 1, arbitrary: versionCase(route, space, parts(route)) },
        ]
        if (route.id === 'quote')
          kinds.push({ weight: 2, arbitrary: limitCase(route, version, parts(route), space.hints) })
        return fc.oneof(...kinds)
      }),
  )
  return fc.oneof(...perRoute)
}
