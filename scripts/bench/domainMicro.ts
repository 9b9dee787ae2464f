/**
 * Bench: CPU per call of the simulator's domain hot spots (EIP-712 digests of the server
 * signature and of the typed data a submission is checked against, the server-signature check,
 * the blanc quote store's encoding), for a two-element IntentOp with ops and metadata. Runs the
 * modules of any tree, so two trees compare side by side in one shell loop:
 *
 *   npx tsx scripts/bench/domainMicro.ts [--tree /work/wt/base] [--scale 1]
 *
 * `process.cpuUsage` of a tight loop, after a quarter of the loop as warm-up; the WebAssembly
 * keccak is given time to load first (it loads on a timer the loop would never yield to).
 */
import { resolve } from 'node:path'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { sampleIntentParameters } from '../../simulator/eip712/testing/sampleIntent'

const argument = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback
}
const tree = resolve(argument('tree', resolve(import.meta.dirname, '..', '..')))
const scale = Number(argument('scale', '1'))
const from = (path: string) => import(resolve(tree, path))
const m = {
  ...(await from('contracts/addresses.ts')),
  ...(await from('lib/hashTypedData.ts')),
  ...(await from('lib/lockTag.ts')),
  ...(await from('lib/nativeSign.ts')),
  ...(await from('simulator/devnet/funding.ts')),
  ...(await from('simulator/eip712/typedData.ts')),
  ...(await from('simulator/quoting/buildIntentOp.ts')),
  ...(await from('simulator/quoting/toStoredQuote.ts')),
  ...(await from('simulator/settlement/toTypedDataDefinition.ts')),
  ...(await from('simulator/signing/serverSignature.ts')),
  ...(await from('simulator/signing/allocator.ts')),
  ...(await from('simulator/intents/lifecycle.ts')),
}

// The devnet signs with libsecp256k1 (simulator/devnet/keys.ts), so the bench does too.
const server = m.nativeSigningAccount(generatePrivateKey())
const sponsor = privateKeyToAccount(generatePrivateKey()).address
/** An IntentOp over two origin chains with destination and pre-claim ops, two outputs, metadata. */
const sampleIntent = (method: 'COMPACT' | 'PERMIT2', amount = 40_000_000n, signNow = true) =>
  m.buildIntentOp(sampleIntentParameters(m, { method, server, sponsor, amount, signNow }))

function time(name: string, n: number, f: () => unknown) {
  const count = Math.max(4, Math.round(n * scale))
  for (let i = 0; i < count / 4; i++) f()
  const t0 = process.cpuUsage()
  for (let i = 0; i < count; i++) f()
  const t = process.cpuUsage(t0)
  console.log(name.padEnd(40), ((t.user + t.system) / count).toFixed(1).padStart(7), 'µs')
}

/** A blanc quote's 8 stored routes (the quote store's records) around an IntentOp. */
function storedRoutes(intentOp: unknown) {
  return Array.from({ length: 8 }, (_, i) => ({
    intentOp,
    signedIntentOp: async () => intentOp,
    fundingMethod: 'COMPACT',
    account: { address: sponsor, setupOps: [] },
    destinationChainId: 8453,
    originChainIds: [8453, 1],
    outputs: [{ token: sponsor, symbol: 'USDC', decimals: 6, amount: 70_000_000n + BigInt(i) }],
    sources: [
      [
        {
          chainId: 8453,
          token: sponsor,
          symbol: 'USDC',
          decimals: 6,
          lockId: 2n ** 200n + 5n,
          amount: 40_000_000n,
          kind: 'SAME',
        },
      ],
      [
        {
          chainId: 1,
          token: sponsor,
          symbol: 'WETH',
          decimals: 18,
          lockId: 2n ** 201n + 7n,
          amount: 10n ** 16n,
          forToken: sponsor,
          value: 31_000_000n,
          kind: 'SWAP',
        },
      ],
    ],
    totalCostUsd: 0.5,
    quotedAt: 1_800_000_000,
  }))
}

await new Promise((done) => setTimeout(done, 300))
console.log(`tree ${tree}`)
// Cold first: the simulator child digests a few dozen IntentOps a run, mostly before the JIT has
// optimized the code, so per-call costs there are several times the warm loop's below. 100
// distinct IntentOps as a submission brings them (parsed JSON), each digested once.
{
  const fresh = []
  for (let i = 0; i < 100; i++)
    fresh.push(
      JSON.parse(JSON.stringify((await sampleIntent('COMPACT', 40_000_000n + BigInt(i), false)).intentOp)),
    )
  const t0 = process.cpuUsage()
  for (const intentOp of fresh) m.serverSignatureDigest(intentOp)
  const t = process.cpuUsage(t0)
  console.log(
    'cold: serverSignatureDigest x100'.padEnd(40),
    ((t.user + t.system) / 100).toFixed(1).padStart(7),
    'µs',
  )
}
for (const method of ['COMPACT', 'PERMIT2'] as const) {
  const { intentOp } = await sampleIntent(method)
  const element = intentOp.elements[0]
  console.log(method)
  time('serverSignatureDigest', 4000, () => m.serverSignatureDigest(intentOp))
  time('hashMandate', 4000, () => m.hashMandate(element.mandate))
  const compact = m.compactTypedData(intentOp)
  time('hashTypedData(compactTypedData)', 4000, () => m.hashTypedData(m.toTypedDataDefinition(compact)))
  const permit2 = m.permit2TypedData(element, intentOp.nonce, intentOp.expires)
  time('hashTypedData(permit2TypedData)', 4000, () => m.hashTypedData(m.toTypedDataDefinition(permit2)))
  const other = m.nativeSigningAccount(generatePrivateKey())
  const foreign = { ...intentOp, serverSignature: (await m.signServerSignature(intentOp, other)) as Hex }
  let verified = 0
  const t0 = process.cpuUsage()
  const count = Math.round(1000 * scale)
  for (let i = 0; i < count; i++)
    if (await m.verifyServerSignature(i % 2 ? intentOp : foreign, server.address)) verified++
  const t = process.cpuUsage(t0)
  console.log(
    'verifyServerSignature (ours, not ours)'.padEnd(40),
    ((t.user + t.system) / count).toFixed(1).padStart(7),
    'µs',
    `${verified}/${count} true`,
  )
  // An accepted intent's record, as the intent store keeps it: one lifecycle step.
  const record = {
    id: '1',
    intentId: '2',
    createdAt: 1_800_000_000,
    sponsor,
    recipient: sponsor,
    destinationChainId: 8453,
    fillDeadline: 1_800_000_900,
    dedupeKey: 'k',
    payload: { intentOp, originSignatures: ['0x11', '0x22'], destinationSignature: '0x33', setupOps: [] },
    ...m.initialLifecycle([8453, 1], 1_800_000_000),
  }
  time('applyIntentEvent (whole record)', 4000, () =>
    m.applyIntentEvent(record, { type: 'fillSent', txHash: `0x${'ab'.repeat(32)}` }, 1_800_000_001),
  )
  const allocator = m.createAllocator({ signer: server, clients: {} })
  const commitment = { lockTag: `0x${'00'.repeat(12)}`, token: sponsor, amount: 5n }
  time('allocator.signTransfer (batch of 2)', 1000, () =>
    allocator.signTransfer({
      chainId: 8453,
      account: sponsor,
      nonce: 7n,
      expires: 1_800_000_000n,
      commitments: [commitment, commitment],
      batch: true,
    }),
  )
  const codec = m.createStoredQuoteCodec(server)
  const routes = storedRoutes(intentOp)
  codec.encode(routes)
  time('stored quote codec: encode 8 routes', 2000, () => codec.encode(routes))
}
