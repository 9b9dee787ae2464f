/**
 * Settlement benchmark (issue 5).
 *
 * - latency: one-origin intents (Permit2 EOA, Optimism → Base), one at a time, submit →
 *   COMPLETED through the intent service (in process, polled every 5 ms); beside it, the time
 *   Anvil takes for the same number of transactions (2 per intent: fill + claim) sent directly
 *   by the relayer, each awaited, in the same run;
 * - throughput: 100 accounts submit at once; intents per second until all are COMPLETED.
 *
 *   npx tsx scripts/bench/settlement.ts [--intents 30] [--concurrent 100]
 */
import { encodeFunctionData, erc20Abi, keccak256, parseUnits, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { startDevnet } from '../../simulator/devnet/startDevnet'
import { createFaults } from '../../simulator/faults/faults'
import type { IntentService } from '../../simulator/intents/types'
import {
  buildSignedIntent,
  fundForPermit2,
  tokenAddress,
} from '../../simulator/settlement/testing/buildSignedIntent'
import { createServices } from '../../simulator/startSimulator'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const sequential = arg('--intents', 30)
const concurrent = arg('--concurrent', 100)
const usdc = (n: number) => parseUnits(String(n), 6)
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!
}
const ms = (v: number) => `${v.toFixed(1)} ms`

async function completed(service: IntentService, id: string) {
  for (;;) {
    const status = await service.getIntent(id)
    if (status?.status === 'COMPLETED') return
    if (status && ['FAILED', 'EXPIRED'].includes(status.status))
      throw new Error(`intent ${id}: ${JSON.stringify(status)}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

const devnet = await startDevnet({ chainIds: [10, 8453], accountCount: 2 })
const stack = await createServices({ devnet, faults: createFaults() })
try {
  const owners = (n: number, tag: string) =>
    Array.from({ length: n }, (_, i) => privateKeyToAccount(keccak256(toHex(`bench settlement ${tag} ${i}`))))
  const intent = (owner: ReturnType<typeof owners>[number]) =>
    buildSignedIntent({
      signer: { kind: 'EOA', account: owner },
      server: devnet.keys.server.account,
      fundingMethod: 'PERMIT2',
      origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(3) }],
      destination: { chainId: 8453, symbol: 'USDC', amount: usdc(2) },
      now: devnet.now(),
    })

  // Latency, one intent at a time (one warm-up first).
  const seq = owners(sequential + 1, 'seq')
  await fundForPermit2(devnet, seq, 10, 'USDC', usdc(10))
  const latencies: number[] = []
  for (const [i, owner] of seq.entries()) {
    const { signedIntentOp } = await intent(owner)
    const started = performance.now()
    const result = await stack.services.intents.submitOperation(signedIntentOp)
    await completed(stack.services.intents, result.id)
    if (i > 0) latencies.push(performance.now() - started)
  }

  // The same number of transactions sent directly: 2 per intent (one per chain), each awaited.
  const direct: number[] = []
  const sender = devnet.keys.accounts[1]!.account
  const nonces = new Map<number, number>()
  for (const chainId of [8453, 10])
    nonces.set(
      chainId,
      await devnet.chain(chainId).publicClient.getTransactionCount({ address: sender.address }),
    )
  for (let i = 0; i < sequential; i++) {
    const started = performance.now()
    for (const chainId of [8453, 10]) {
      const chain = devnet.chain(chainId)
      const nonce = nonces.get(chainId)!
      nonces.set(chainId, nonce + 1)
      const hash = await chain.relayerClient.sendTransaction({
        account: sender,
        to: tokenAddress(chainId, 'USDC'),
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [devnet.keys.accounts[0]!.address, 1n],
        }),
        nonce,
      })
      while (!(await chain.publicClient.getTransactionReceipt({ hash }).catch(() => undefined)))
        await new Promise((r) => setTimeout(r, 5))
    }
    direct.push(performance.now() - started)
  }

  // Throughput: `concurrent` accounts at once.
  const many = owners(concurrent, 'load')
  await fundForPermit2(devnet, many, 10, 'USDC', usdc(10))
  const signed = await Promise.all(many.map(intent))
  const started = performance.now()
  const results = await Promise.all(
    signed.map((s) => stack.services.intents.submitOperation(s.signedIntentOp)),
  )
  await Promise.all(results.map((r) => completed(stack.services.intents, r.id)))
  const seconds = (performance.now() - started) / 1000

  console.log(`settlement latency, submit → COMPLETED (${sequential} one-origin intents, one at a time):`)
  console.log(`  intent:        median ${ms(pct(latencies, 50))}, p95 ${ms(pct(latencies, 95))}`)
  console.log(
    `  2 direct txs:  median ${ms(pct(direct, 50))}, p95 ${ms(pct(direct, 95))}  (ERC-20 transfers, one per chain, viem estimate + send + receipt)`,
  )
  console.log(
    `throughput: ${concurrent} accounts at once → ${(concurrent / seconds).toFixed(1)} intents/s to COMPLETED (${seconds.toFixed(2)} s)`,
  )
} finally {
  await stack.stop()
  await devnet.stop()
}
