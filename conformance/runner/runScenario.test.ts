import { mkdtemp, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type AnvilInstance, startAnvil } from '../../simulator/devnet/anvil'
import { type LoadedScenario, loadScenarios, parseScenario } from '../scenario/loadScenarios'
import { runConformance } from './runConformance'
import type { LocalTarget } from './startLocalTarget'

/**
 * The HTTP service alone (no chains, no control API, domain routes answer 501): a target that
 * lacks most capabilities, unlike startLocalTarget's whole simulator.
 */
async function startBareTarget(parameters: { strictVersion?: boolean } = {}): Promise<LocalTarget> {
  const [{ buildApp, ApiError }, { stubServices }, { createFaults }, { faultControl }, { withHttpFaults }] =
    await Promise.all([
      import('../../simulator/http'),
      import('../../simulator/http/testing/stubServices'),
      import('../../simulator/faults/faults'),
      import('../../simulator/faultInjection/http/control'),
      import('../../simulator/faultInjection/http/httpFaults'),
    ])
  const faults = createFaults()
  // A vendor still building its domain logic: every domain route answers 501.
  const notBuilt = async (): Promise<never> => {
    throw new ApiError('INTERNAL_ERROR', 'Not implemented yet.', { status: 501 })
  }
  const stubs = stubServices()
  const apiKey = 'bare-target-key'
  const app = await buildApp(
    { apiKeys: [apiKey], strictVersion: parameters.strictVersion },
    {
      ...stubs,
      quoting: { quoteBest: notBuilt, quoteEvery: notBuilt, resetQuotes: notBuilt, portfolio: notBuilt },
      intents: {
        submitOperation: notBuilt,
        simulateOperation: notBuilt,
        submitQuoted: notBuilt,
        simulateQuoted: notBuilt,
        getIntent: notBuilt,
        findIntent: notBuilt,
      },
      withdrawals: { withdraw: notBuilt, batchWithdraw: notBuilt },
      depositProcessor: {
        setup: notBuilt,
        getSetup: notBuilt,
        register: notBuilt,
        listDeposits: notBuilt,
        getDeposit: notBuilt,
        listWebhookEvents: notBuilt,
        resendWebhookEvent: notBuilt,
        sendTestEvent: notBuilt,
        resendFailedWebhookEvents: notBuilt,
      },
      faults: faultControl(faults),
    },
    { plugins: [withHttpFaults(faults)] },
  )
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return { target: `http://127.0.0.1:${port}`, apiKey, apiKeys: [], stop: () => app.close() }
}

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
  ;[anvil, local] = await Promise.all([startAnvil({ chainId: 8453 }), startBareTarget()])
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
  test('sign, receipt, poll and cleanup steps', async () => {
    const steps = scenario(`
id: steps.new
title: new step kinds
spec: test
requires: { capabilities: [chains] }
steps:
  - sign:
      account: 0
      typedData:
        domain: { name: Test, version: '1', chainId: '8453', verifyingContract: '0x1111111111111111111111111111111111111111' }
        types:
          EIP712Domain: [{ name: name, type: string }, { name: version, type: string }, { name: chainId, type: uint256 }, { name: verifyingContract, type: address }]
          Mail: [{ name: to, type: address }, { name: amount, type: uint256 }]
        primaryType: Mail
        message: { to: '0x2222222222222222222222222222222222222222', amount: '1000000000000000000000' }
    captureAs: signature
  - chain: { action: transfer, chainId: 8453, from: 0, to: '0x3333333333333333333333333333333333333333', amount: '1' }
    capture: { txHash: hash }
  - chain: { action: receipt, chainId: 8453, hash: '\${txHash}' }
  - http: { method: GET, path: /health }
    expect: { status: 200, body: { /signature: { equals: '\${signature}' } } }
    poll: { timeoutSeconds: 1, intervalMs: 200 }
  - chain: { action: receipt, chainId: 8453, hash: '0x${'ab'.repeat(32)}' }
cleanup:
  - chain: { action: readBalance, chainId: 8453, account: '0x3333333333333333333333333333333333333333', expect: { matches: '^[1-9]' } }
`)
    const run = await runConformance({
      target: local.target,
      apiKey: local.apiKey,
      chainsFile,
      scenarios: [steps],
    })
    const checks = run.scenarios[0]!.checks
    // The runner's own transfer is setup: noted, never a check the target passed.
    expect(run.scenarios[0]!.notes).toEqual([
      expect.stringMatching(/^setup: transfer \(transfer on chain 8453\), transaction 0x[0-9a-f]{64}$/),
    ])
    expect(checks.map((c) => [c.step, c.name, c.status])).toEqual([
      // named from the scenario's text (stable across runs), not the hash it resolved to
      [3, `receipt $\{txHash}`, 'passed'],
      // a status passes only with the body that proves it
      [4, 'status', 'failed'],
      [4, 'body /signature', 'failed'],
      // step 5 does not run after a failure; the cleanup step does
      [6, 'balance 0x3333333333333333333333333333333333333333 on 8453', 'passed'],
    ])
    expect(checks[2]!.message).toMatch(/still, after \d+ polls over [01]\.\d s of the poll's 1 s/)
    const signature = (checks[2]!.expected as { equals: string }).equals
    const { verifyTypedData } = await import('viem')
    expect(
      await verifyTypedData({
        address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        domain: {
          name: 'Test',
          version: '1',
          chainId: 8453n,
          verifyingContract: '0x1111111111111111111111111111111111111111',
        },
        types: {
          Mail: [
            { name: 'to', type: 'address' },
            { name: 'amount', type: 'uint256' },
          ],
        },
        primaryType: 'Mail',
        message: { to: '0x2222222222222222222222222222222222222222', amount: 10n ** 21n },
        signature: signature as `0x${string}`,
      }),
    ).toBe(true)
  })

  test('patch copies a captured value with fields replaced; receipts checks each listed transaction', async () => {
    const steps = scenario(`
id: steps.patch-receipts
title: patch and receipts
spec: test
requires: { capabilities: [chains] }
steps:
  - chain: { action: transfer, chainId: 8453, from: 0, to: '0x4444444444444444444444444444444444444444', amount: '1' }
    capture: { txHash: hash }
  - patch:
      value: { claims: [{ chainId: 8453, claimTransactionHash: '\${txHash}' }, { chainId: 8453, claimTransactionHash: '\${txHash}' }] }
      set: { /claims/1/claimTransactionHash: '0x${'ab'.repeat(32)}' }
    captureAs: patched
  - patch:
      value: { claims: [{ chainId: 8453, claimTransactionHash: '\${txHash}' }] }
      set: { /claims/0/claimTransactionHash: '\${txHash}' }
    captureAs: intact
  - http: { method: GET, path: /health }
    expect: { body: { /x: { equals: '\${patched}' } } }
`)
    const receipts = (list: string) =>
      scenario(`
id: steps.receipts
title: receipts
spec: test
requires: { capabilities: [chains] }
steps:
  - chain: { action: transfer, chainId: 8453, from: 0, to: '0x4444444444444444444444444444444444444444', amount: '1' }
    capture: { txHash: hash }
  - chain: { action: receipts, transactions: ${list}, timeoutSeconds: 1 }
`)
    const run = await runConformance({
      target: local.target,
      apiKey: local.apiKey,
      chainsFile,
      scenarios: [
        steps,
        receipts(
          `[{ chainId: 8453, claimTransactionHash: '\${txHash}' }, { chainId: 8453, claimTransactionHash: '0x${'ab'.repeat(32)}' }]`,
        ),
        receipts('[]'),
      ],
    })
    const [patch, twoReceipts, none] = run.scenarios
    const patched = (
      patch!.checks.at(-1)!.expected as { equals: { claims: { claimTransactionHash: string }[] } }
    ).equals
    expect(patched.claims[1]!.claimTransactionHash).toBe(`0x${'ab'.repeat(32)}`)
    expect(patched.claims[0]!.claimTransactionHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(patched.claims[0]!.claimTransactionHash).not.toBe(patched.claims[1]!.claimTransactionHash)
    expect(twoReceipts!.checks.map((c) => [c.name, c.status])).toEqual([
      ['transactions', 'passed'],
      ['receipt 0', 'passed'],
      ['receipt 1', 'failed'],
    ])
    expect(twoReceipts!.checks[2]!.message).toContain('not mined')
    expect(none!.checks.map((c) => [c.name, c.status]).at(-1)).toEqual(['transactions', 'failed'])
  })

  test('patch names a path that does not exist: the step fails', async () => {
    const bad = scenario(`
id: steps.patch-missing
title: patch missing path
spec: test
steps:
  - patch: { value: { a: 1 }, set: { /b/c: 2 } }
    captureAs: x
`)
    // A new field of an existing object is added (e.g. `/options` of a signed intentOp).
    const added = scenario(`
id: steps.patch-added
title: patch adds a field
spec: test
steps:
  - patch: { value: { a: 1 }, set: { /b: { c: 2 } } }
    captureAs: x
  - http: { method: GET, path: /health }
    expect: { body: { /x: { equals: '\${x}' } } }
`)
    const run = await runConformance({ target: local.target, apiKey: local.apiKey, scenarios: [bad, added] })
    expect(run.scenarios[0]!.checks[0]!.status).toBe('failed')
    expect(run.scenarios[0]!.checks[0]!.message).toContain('/b/c does not exist')
    expect(run.scenarios[1]!.checks.at(-1)!.expected).toEqual({ equals: { a: 1, b: { c: 2 } } })
  })

  test('a receipt step fails for a transaction that is not mined', async () => {
    const missing = scenario(`
id: steps.receipt
title: receipt of nothing
spec: test
requires: { capabilities: [chains] }
steps:
  - chain: { action: receipt, chainId: 8453, hash: '0x${'ab'.repeat(32)}', timeoutSeconds: 1 }
`)
    const run = await runConformance({
      target: local.target,
      apiKey: local.apiKey,
      chainsFile,
      scenarios: [missing],
    })
    expect(run.scenarios[0]!.checks[0]!.status).toBe('failed')
    expect(run.scenarios[0]!.checks[0]!.message).toContain('is not mined on chain 8453')
  })

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
      ['balance 0x1111111111111111111111111111111111111111 on 8453', 'passed'],
      // named as the scenario writes the account (the schedule may lend it another funded one)
      [`balance $\{accounts.0.address} on 8453`, 'passed'],
      ['balance 0x1111111111111111111111111111111111111111 on 8453', 'failed'],
    ])
    expect(checks[2]!.message).toBe(
      'balance of 0x1111111111111111111111111111111111111111 on chain 8453 is "12345", not "1"',
    )
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
      // A missing endpoint fails the scenario's checks; it never makes the scenario not applicable.
      ['needs.quotes', 'passed', undefined],
      ['needs.devnet', 'passed', undefined],
    ])
  })

  test('a scenario naming a funded account the run does not have is not applicable; with it, it runs', async () => {
    const quote = scenario(`
id: needs.account
title: t
spec: s
steps:
  - http: { method: GET, path: "/health?for=\${accounts.0.address}" }
    expect: { status: 200 }
`)
    const without = await runConformance({ target: local.target, apiKey: local.apiKey, scenarios: [quote] })
    expect(without.scenarios.map((s) => [s.status, s.reason])).toEqual([
      [
        'not-applicable',
        'it uses funded account 0 and the run has none (no manifest, and no accounts in a --chains file): add funded private keys under accounts in --chains',
      ],
    ])
    const withAccounts = await runConformance({
      target: local.target,
      apiKey: local.apiKey,
      chainsFile,
      scenarios: [quote],
    })
    expect(withAccounts.scenarios[0]!.status).toBe('passed')
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
    expect(run.scenarios[1]!.reason).toContain('3600s is longer than the 1s the run may wait (--max-wait)')
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
    // Every answer the step accepted also gets the route table's checks (the 5xx rule, the envelope).
    expect(result.checks.map((c) => `${c.id} ${c.status}`)).toEqual([
      'capture/1/every answer: not a 5xx passed',
      'capture/1/should every answer: the error envelope passed',
      'capture/2/body /code passed',
      'capture/2/body /traceId passed',
      'capture/2/every answer: not a 5xx passed',
      'capture/2/should every answer: the error envelope passed',
      'capture/3/status failed',
    ])
    expect(result.reason).toBe('stopped after step 3; 1 step not run')
  })

  test('the versioning and errors packs pass against a simulator with strict versioning too', async () => {
    const strict = await startBareTarget({ strictVersion: true })
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
