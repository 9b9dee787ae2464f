/**
 * SDK benchmark (issue 14): the public SDK 1.x `sendTransaction` → `waitForExecution` resolved,
 * for a one-origin intent with a destination call (EOA through Permit2, Optimism → Base, one
 * ERC-20 transfer onward), against a started simulator over HTTP; beside it, in the same run, the
 * SAME fill and claim transactions sent directly with viem: before each intent both chains are
 * snapshotted; after it, they are reverted and the relayer's two mined transactions (same
 * calldata, value and nonce) are sent again, fill then claim, each awaited.
 *
 *   npx tsx scripts/bench/sdkIntent.ts [--intents 20]
 */
import { RhinestoneSDK } from '@rhinestone/sdk'
import { encodeFunctionData, erc20Abi, type Hex, keccak256, parseUnits, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base, optimism } from 'viem/chains'
import { approvePermit2, tokenAddress } from '../../simulator/settlement/testing/buildSignedIntent'
import { startSimulator } from '../../simulator/startSimulator'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const runs = arg('--intents', 20)
const usdc = (n: number) => parseUnits(String(n), 6)
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!
}
const ms = (v: number) => `${v.toFixed(1)} ms`
const ORIGIN = 10
const DEST = 8453

const sim = await startSimulator({ port: 0, chainIds: [ORIGIN, DEST] })
try {
  const user = sim.devnet.keys.accounts[0]!.account
  const relayer = sim.devnet.keys.relayer.account
  await approvePermit2(sim.devnet, user, ORIGIN, tokenAddress(ORIGIN, 'USDC'))
  const sdk = new RhinestoneSDK({
    apiKey: sim.apiKey,
    endpointUrl: sim.baseUrl,
    provider: {
      type: 'custom',
      urls: Object.fromEntries(sim.devnet.chains.map((c) => [c.chainId, c.rpcUrl])),
    },
  })
  const account = await sdk.createAccount({ account: { type: 'eoa' }, eoa: user })
  const third = privateKeyToAccount(keccak256(toHex('bench sdkIntent third'))).address
  const call = {
    to: tokenAddress(DEST, 'USDC'),
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [third, usdc(1)] }),
  }

  /** A mined transaction of the relayer, read before the revert removes it. */
  const read = async (chainId: number, hash: Hex) => ({
    chainId,
    hash,
    tx: await sim.devnet.chain(chainId).publicClient.getTransaction({ hash }),
  })
  /** Sends a read transaction again from the relayer (same to, data, value, nonce) and awaits it. */
  const resend = async ({ chainId, hash, tx }: Awaited<ReturnType<typeof read>>) => {
    const chain = sim.devnet.chain(chainId)
    const again = await chain.relayerClient.sendTransaction({
      account: relayer,
      to: tx.to!,
      data: tx.input,
      value: tx.value,
      nonce: tx.nonce,
    })
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: again, pollingInterval: 5 })
    if (receipt.status !== 'success') throw new Error(`direct resend of ${hash} reverted on ${chainId}`)
  }

  const viaSdk: number[] = []
  const direct: number[] = []
  const sendOnly: number[] = []
  for (let i = 0; i <= runs; i++) {
    const snapshots = await Promise.all(
      [ORIGIN, DEST].map(async (c) => ({ c, id: await sim.devnet.chain(c).testClient.snapshot() })),
    )
    const started = performance.now()
    const result = await account.sendTransaction({
      sourceChains: [optimism],
      targetChain: base,
      calls: [call],
      tokenRequests: [{ address: tokenAddress(DEST, 'USDC'), amount: usdc(2) }],
    })
    const submittedMs = performance.now() - started
    const execution = (await account.waitForExecution(result)) as {
      fill: { hash: Hex }
      claims: { hash: Hex; chainId: number }[]
    }
    const sdkMs = performance.now() - started
    // The warm-up (i = 0) also makes the relayer's one-time approvals: neither timed nor reverted.
    if (i === 0) continue
    viaSdk.push(sdkMs)
    sendOnly.push(submittedMs)
    const sent = [
      await read(DEST, execution.fill.hash),
      ...(await Promise.all(execution.claims.map((c) => read(c.chainId, c.hash)))),
    ]
    for (const { c, id } of snapshots) await sim.devnet.chain(c).testClient.revert({ id })
    const directStarted = performance.now()
    for (const transaction of sent) await resend(transaction)
    direct.push(performance.now() - directStarted)
  }

  const ratio = pct(viaSdk, 50) / pct(direct, 50)
  console.log(
    `SDK 1.x sendTransaction → waitForExecution, one origin with a call (${runs} intents, one at a time):`,
  )
  console.log(`  via the SDK:              median ${ms(pct(viaSdk, 50))}, p95 ${ms(pct(viaSdk, 95))}`)
  console.log(`    of which sendTransaction (route, sign, submit): median ${ms(pct(sendOnly, 50))}`)
  console.log(`  same fill + claim direct: median ${ms(pct(direct, 50))}, p95 ${ms(pct(direct, 95))}`)
  console.log(`  ratio of medians: ${ratio.toFixed(2)}x`)
} finally {
  await sim.close()
}
