import { describe, expect, test } from 'vitest'
import { runConformance } from './runConformance'
import { scenario, useBareTargetWithChain } from './testing/bareTarget'

const fx = useBareTargetWithChain()

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
      target: fx.local.target,
      apiKey: fx.local.apiKey,
      chainsFile: fx.chainsFile,
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
      target: fx.local.target,
      apiKey: fx.local.apiKey,
      chainsFile: fx.chainsFile,
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
    const run = await runConformance({
      target: fx.local.target,
      apiKey: fx.local.apiKey,
      scenarios: [bad, added],
    })
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
      target: fx.local.target,
      apiKey: fx.local.apiKey,
      chainsFile: fx.chainsFile,
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
      target: fx.local.target,
      apiKey: fx.local.apiKey,
      chainsFile: fx.chainsFile,
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
})
