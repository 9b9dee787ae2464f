import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { startFakeTarget } from '../../test/conformance/fakeTarget'
import { parseScenario } from '../scenario/loadScenarios'
import type { HttpExpect } from '../scenario/schema'
import { CHAINS_TEMPLATE } from './chainsTemplate'
import { ChainsFile } from './detectCapabilities'
import { evaluate, evaluateAnyOf } from './evaluate'
import { applyLearned, learnFromTarget, type Probe } from './learnProfile'
import { applyProfile, PUBLIC_PROFILE, SPEC_PROFILE } from './profile'
import { errorReasons } from './reasons'
import { runConformance } from './runConformance'
import { applyCanonicalDefaults, missingInput } from './runInputs'
import type { HttpResponse } from './sendRequest'
import type { TargetCapabilities } from './types'

const answer = (status: number, json: unknown): HttpResponse => ({
  status,
  headers: {},
  text: JSON.stringify(json),
  json,
})

function scenario(text: string) {
  const parsed = parseScenario(text, 'scenarios/test/x.yaml')
  if (!parsed.scenario) throw new Error(JSON.stringify(parsed.problems))
  return { ...parsed.scenario, pack: 'test', file: 'scenarios/test/x.yaml' }
}

describe('reasons are read wherever a target puts them', () => {
  test('message, error, code, details[] (message, path, field), errors[] and alps context', () => {
    expect(errorReasons({ message: 'Invalid', details: [{ path: ['preClaimExecutions', '1'] }] })).toContain(
      'preClaimExecutions.1',
    )
    expect(errorReasons({ error: { message: 'bad', details: [{ field: 'amount' }] } })).toContain('amount')
    expect(errorReasons({ errors: [{ message: 'x', context: { header: 'x-api-version' } }] })).toContain(
      'x-api-version',
    )
    expect(errorReasons({ details: { issues: [{ path: 'destinationChainId', message: 'no' }] } })).toContain(
      'destinationChainId',
    )
    expect(errorReasons({ routes: [] })).toBe('')
  })

  test('a reason matcher is case-insensitive and a refusal naming another field does not hold', () => {
    const expect400 = { status: 400, reason: { matches: 'x-api-version' } } as HttpExpect
    const inDetails = answer(400, {
      code: 'VALIDATION_ERROR',
      message: 'Bad',
      details: [{ path: 'X-API-Version' }],
    })
    expect(evaluate(expect400, inDetails).every((e) => e.ok)).toBe(true)
    const other = answer(400, { code: 'VALIDATION_ERROR', message: 'destinationChainId must be CAIP-2' })
    const amount = { status: 400, reason: { matches: 'amount' } } as HttpExpect
    expect(evaluate(amount, other).find((e) => e.name === 'reason')).toMatchObject({ ok: false })
  })
})

describe('a missing route is never acceptance', () => {
  const notFound = answer(404, {
    code: 'NOT_FOUND',
    message: 'Not implemented: POST /withdrawals',
    traceId: 't',
  })
  test('4xx, { not: 400 } and an alternative without a status fail on 404, 405 and 501; every other check of the step too', () => {
    for (const status of ['4xx', { not: 400 }] as const) {
      const results = evaluate({ status, envelope: 'blanc' } as HttpExpect, notFound)
      expect(results.map((r) => r.ok)).toEqual([false, false])
      expect(results[0]!.message).toMatch(/^status is 404 NOT_FOUND: the target does not serve the route/)
    }
    for (const status of [405, 501])
      expect(evaluate({ status: '4xx' } as HttpExpect, answer(status, {}))[0]!.ok).toBe(false)
    expect(evaluateAnyOf([{ envelope: 'blanc' }, { status: 200 }], notFound).ok).toBe(false)
  })
  test('a step that names 404 itself (an expired quote) passes on it', () => {
    expect(
      evaluate({ status: 404, body: { '/code': { equals: 'NOT_FOUND' } } } as HttpExpect, notFound).every(
        (e) => e.ok,
      ),
    ).toBe(true)
  })
})

describe('what the runner learns of a target', () => {
  const request = { destinationChainId: 8453, account: {} }
  /** A target that takes CAIP-2 chain ids only, at the public paths, and serves header-less requests as blanc. */
  const caip2Target: Probe = async ({ path, body, version }) => {
    if (version === undefined && path === '/intents/route')
      return { status: 404, json: { code: 'NOT_FOUND' } }
    const chain = (body as { destinationChainId?: unknown }).destinationChainId
    return typeof chain === 'string'
      ? { status: 200, json: { routes: [] } }
      : {
          status: 400,
          json: { code: 'VALIDATION_ERROR', message: 'Invalid', details: [{ path: 'destinationChainId' }] },
        }
  }
  test('public: CAIP-2 destinationChainId and where header-less requests go, both applied and noted', async () => {
    const learned = await learnFromTarget(PUBLIC_PROFILE, caip2Target, request)
    expect(learned).toMatchObject({
      unversioned: 'mapped',
      caip2Request: [{ route: 'POST /intents/route', version: 'blanc', pointers: ['/destinationChainId'] }],
      hints: [],
    })
    expect(learned.notes).toHaveLength(2)
    const profile = applyLearned(PUBLIC_PROFILE, learned)
    const quote = applyProfile(profile, {
      method: 'POST',
      path: '/intents/route',
      version: 'blanc',
      body: request,
    })
    expect(quote).toMatchObject({ path: '/quotes', body: { destinationChainId: 'eip155:8453' } })
    expect(applyProfile(profile, { method: 'POST', path: '/intents/route' }).path).toBe('/quotes')
  })
  test('public: every route with chain ids in its request is probed, and only the fields the target needs are mapped and named', async () => {
    // CAIP-2 for the destination, the allowed chains and a withdrawal's chain; numbers elsewhere.
    const caip2 = (value: unknown) => typeof value === 'string' && /^eip155:\d+$/.test(value)
    const refuse = (field: string) => ({
      status: 400,
      json: { code: 'VALIDATION_ERROR', message: `${field} must be a CAIP-2 chain id` },
    })
    const everywhere: Probe = async ({ path, body }) => {
      const b = body as Record<string, any>
      if (path === '/quotes') {
        if (!caip2(b.destinationChainId)) return refuse('destinationChainId')
        if (!(b.accountAccessList?.chainIds ?? []).every(caip2)) return refuse('accountAccessList.chainIds')
        if (!(b.accountAccessList?.exclude?.chainIds ?? []).every((c: unknown) => typeof c === 'number'))
          return refuse('accountAccessList.exclude.chainIds')
        return { status: 200, json: { routes: [] } }
      }
      if (path === '/withdrawals' || path === '/batch-withdrawals')
        return caip2(b.chainId) ? { status: 200, json: {} } : refuse('chainId')
      return { status: 404, json: { code: 'NOT_FOUND' } }
    }
    const learned = await learnFromTarget(PUBLIC_PROFILE, everywhere, request)
    expect(learned.caip2Request).toEqual([
      {
        route: 'POST /intents/route',
        version: 'blanc',
        pointers: ['/destinationChainId', '/accountAccessList/chainIds/*'],
      },
      { route: 'POST /withdrawals', version: undefined, pointers: ['/chainId'] },
      { route: 'POST /batch-withdrawals', version: undefined, pointers: ['/chainId'] },
    ])
    expect(learned.notes.filter((n) => /as CAIP-2/.test(n))).toHaveLength(3)
    const profile = applyLearned(PUBLIC_PROFILE, learned)
    const withdrawal = applyProfile(profile, {
      method: 'POST',
      path: '/withdrawals',
      version: 'alps',
      body: { chainId: 8453 },
    })
    expect(withdrawal).toMatchObject({
      path: '/withdrawals',
      body: { chainId: 'eip155:8453' },
      mapping: 'POST /withdrawals → POST /withdrawals; /chainId as eip155:<n>',
    })
    const quote = applyProfile(profile, {
      method: 'POST',
      path: '/intents/route',
      version: 'blanc',
      body: { ...request, accountAccessList: { chainIds: [10], exclude: { chainIds: [1] } } },
    })
    expect(quote.body).toMatchObject({
      destinationChainId: 'eip155:8453',
      accountAccessList: { chainIds: ['eip155:10'], exclude: { chainIds: [1] } },
    })
  })
  test('spec profile: no mapping, a hint to use a profile', async () => {
    const learned = await learnFromTarget(SPEC_PROFILE, caip2Target, request)
    expect(learned.caip2Request).toBeUndefined()
    expect(learned.hints).toEqual([expect.stringMatching(/CAIP-2 .*--profile public/)])
  })
})

describe('configuration gaps are not the target failures', () => {
  const caps = (): TargetCapabilities => ({
    target: 'http://x',
    controlApi: false,
    faults: false,
    chains: [{ chainId: 10, rpcUrl: 'http://127.0.0.1:1' }],
    accounts: [],
    versions: ['alps', 'blanc'],
    implemented: {},
    webhooks: false,
    contracts: {},
    tokens: {},
  })
  test('canonical Permit2 and Compact on every chain, the real tokens of 1, 10, 8453 and 42161', () => {
    const c = caps()
    const filled = applyCanonicalDefaults(c)
    expect(c.contracts['10.permit2']).toBe('0x000000000022D473030F116dDEE9F6B43aC78BA3')
    expect(c.tokens['8453.USDC']).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')
    expect(filled).toContain('tokens.42161.USDT0')
  })
  test('a variable or chain the run lacks makes the scenario not applicable, with the fix', () => {
    const c = caps()
    applyCanonicalDefaults(c)
    const needs = (body: string) => missingInput(scenario(`id: t.x\ntitle: t\nspec: s\nsteps:\n${body}`), c)
    expect(needs(`  - http: { method: GET, path: '/x/\${tokens.10.DAI}' }`)).toBe(
      'it needs ${tokens.10.DAI}: add "10.DAI": "0x…" under tokens in --chains',
    )
    expect(needs(`  - http: { method: GET, path: '/x/\${contracts.8453.emissary}' }`)).toMatch(
      /add "8453.emissary": "0x…" under contracts in --chains$/,
    )
    expect(
      needs(
        `  - chain: { action: readBalance, chainId: 8453, account: '0x0000000000000000000000000000000000000001' }`,
      ),
    ).toMatch(/^it acts on chain 8453, and the run has no RPC URL for it/)
    expect(
      needs(`  - http: { method: GET, path: '/x/\${tokens.10.USDC}/\${contracts.10.permit2}' }`),
    ).toBeUndefined()
  })
  test('--chains-template is a valid --chains file naming every field', () => {
    const file = ChainsFile.parse(parse(CHAINS_TEMPLATE))
    expect(file.chains.length).toBeGreaterThan(0)
    for (const field of ['chains:', 'rpcUrl', 'accounts:', 'contracts:', 'tokens:', 'quoteTtlSeconds'])
      expect(CHAINS_TEMPLATE).toContain(field)
  })
})

test('--fail-fast: after the first failed scenario no other starts', async () => {
  const fake = await startFakeTarget('404 {}')
  try {
    const make = (id: string) =>
      scenario(
        `id: ${id}\ntitle: t\nspec: s\nsteps:\n  - http: { method: GET, path: /health }\n    expect: { status: 200 }`,
      )
    const run = await runConformance({
      target: fake.url,
      apiKey: 'k',
      scenarios: [make('t.a'), make('t.b'), make('t.c')],
      failFast: true,
      concurrency: 1,
    })
    expect(run.scenarios.map((s) => s.status)).toEqual(['failed', 'not-applicable', 'not-applicable'])
    expect(run.scenarios[1]!.reason).toBe('not run: --fail-fast stopped the run when t.a failed')
  } finally {
    await fake.close()
  }
}, 30_000)
