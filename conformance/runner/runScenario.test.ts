import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type AnvilInstance, startAnvil } from '../../simulator/devnet/anvil'
import { type LoadedScenario, loadScenarios, parseScenario } from '../scenario/loadScenarios'
import { runConformance } from './runConformance'
import { type LocalTarget, startLocalTarget } from './startLocalTarget'

// Anvil's first default account.
const FUNDED_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

function scenario(text: string): LoadedScenario {
  const parsed = parseScenario(text, 'inline.yaml')
  if (!parsed.scenario) throw new Error(JSON.stringify(parsed.problems))
  return { ...parsed.scenario, pack: 'inline', file: 'inline.yaml' }
}

let anvil: AnvilInstance
let local: LocalTarget
let chainsFile: string

beforeAll(async () => {
  ;[anvil, local] = await Promise.all([startAnvil({ chainId: 8453 }), startLocalTarget()])
  chainsFile = join(await mkdtemp(join(tmpdir(), 'chains-')), 'chains.json')
  await writeFile(
    chainsFile,
    JSON.stringify({ chains: [{ chainId: 8453, rpcUrl: anvil.rpcUrl }], accounts: [FUNDED_KEY] }),
  )
})
afterAll(async () => {
  await Promise.all([anvil?.stop(), local?.stop()])
})

describe('runScenario', () => {
  test('chain steps run over viem against the --chains file, and their checks can fail', async () => {
    const transfer = scenario(`
id: chain.transfer
title: native transfer
spec: test
requires: { capabilities: [chains] }
steps:
  - chain: { action: transfer, chainId: 8453, from: 0, to: '0x1111111111111111111111111111111111111111', amount: '12345' }
    capture: { txHash: hash }
  - chain: { action: readBalance, chainId: 8453, account: '0x1111111111111111111111111111111111111111', expect: { equals: '12345' }, captureAs: bal }
  - chain: { action: readBalance, chainId: '\${chains.0.chainId}', account: '\${accounts.0.address}', expect: { matches: '^\\d+$' } }
  - chain: { action: readBalance, chainId: 8453, account: '0x1111111111111111111111111111111111111111', expect: { equals: '1' } }
`)
    const run = await runConformance({
      target: local.target,
      apiKey: local.apiKey,
      chainsFile,
      scenarios: [transfer],
    })
    const checks = run.scenarios[0]!.checks
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ['transfer on 8453', 'passed'],
      ['balance 0x1111111111111111111111111111111111111111 on 8453', 'passed'],
      ['balance 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 on 8453', 'passed'],
      ['balance 0x1111111111111111111111111111111111111111 on 8453', 'failed'],
    ])
    expect(checks[3]!.message).toBe('balance is "12345", not "1"')
    expect(run.summary.unexpected).toBe(1)
  })

  test('a scenario whose requirements the target lacks is not applicable, never passed', async () => {
    const needs = (capabilities: string) =>
      scenario(
        `id: needs.${capabilities}\ntitle: t\nspec: s\nrequires: { capabilities: [${capabilities}] }\nsteps:\n  - wait: 1\n`,
      )
    const run = await runConformance({
      target: local.target,
      apiKey: local.apiKey,
      scenarios: [needs('chains'), needs('control-api'), needs('quotes'), needs('devnet')],
    })
    expect(run.scenarios.map((s) => [s.id, s.status, s.reason])).toEqual([
      ['needs.chains', 'not-applicable', 'no chain RPC URLs (no manifest and no --chains file)'],
      ['needs.control-api', 'not-applicable', 'the target has no devnet control API (GET /_devnet/manifest)'],
      ['needs.quotes', 'not-applicable', 'the target answers 501 NOT_IMPLEMENTED on POST /intents/route'],
      ['needs.devnet', 'passed', undefined],
    ])
  })

  test('a clock step without the control API waits a short time out, and is not applicable past its limit', async () => {
    const clock = (advance: number) =>
      scenario(
        `id: clock.s${advance}\ntitle: t\nspec: s\nsteps:\n  - clock: { advance: ${advance}, fallback: wait, maxWaitSeconds: 1 }\n  - http: { method: GET, path: /health }\n    expect: { status: 200 }\n`,
      )
    const started = Date.now()
    const run = await runConformance({
      target: local.target,
      apiKey: local.apiKey,
      scenarios: [clock(1), clock(3600)],
    })
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
    expect(run.scenarios.map((s) => s.status)).toEqual(['passed', 'not-applicable'])
    expect(run.scenarios[1]!.reason).toContain('3600s is longer than the 1s')
  })

  test('captures feed later steps, and a failed step stops the scenario', async () => {
    const run = await runConformance({
      target: local.target,
      apiKey: local.apiKey,
      scenarios: [
        scenario(`
id: capture
title: t
spec: s
steps:
  - http: { method: POST, path: /withdrawals, body: {} }
    capture: { trace: 'header:x-trace-id', code: /code }
  - http: { method: POST, path: /withdrawals, body: {} }
    expect: { body: { /code: { equals: '\${code}' }, /traceId: { matches: '^(?!\${trace}$)' } } }
  - http: { method: GET, path: /health }
    expect: { status: 500 }
  - http: { method: GET, path: /health }
`),
      ],
    })
    const result = run.scenarios[0]!
    expect(result.checks.map((c) => `${c.id} ${c.status}`)).toEqual([
      'capture/2/body /code passed',
      'capture/2/body /traceId passed',
      'capture/3/status failed',
    ])
    expect(result.reason).toBe('stopped after step 3 failed; 1 step(s) not run')
  })

  test('the versioning and errors packs pass against a simulator with strict versioning too', async () => {
    const strict = await startLocalTarget({ strictVersion: true })
    try {
      const scenarios = await loadScenarios({ packs: ['versioning', 'errors'] })
      const run = await runConformance({ target: strict.target, apiKey: strict.apiKey, scenarios })
      const failed = run.scenarios.flatMap((s) => s.checks.filter((c) => c.status === 'failed'))
      expect(failed.map((c) => `${c.id}: ${c.message}`)).toEqual([])
      expect(run.summary.checks.total).toBeGreaterThan(20)
    } finally {
      await strict.stop()
    }
  })
})
