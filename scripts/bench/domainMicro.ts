import type { Address, Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { tokensByChain } from '../../contracts/addresses'
import { hashTypedData } from '../../lib/hashTypedData'
import { toLockId } from '../../lib/lockTag'
import { DEVNET_LOCK_TAG } from '../../simulator/devnet/funding'
import { compactTypedData, hashMandate, permit2TypedData } from '../../simulator/eip712/typedData'
import { buildIntentOp } from '../../simulator/quoting/buildIntentOp'
import type { FundingPlan, PlanRequest } from '../../simulator/quoting/planFunding'
import { toTypedDataDefinition } from '../../simulator/settlement/toTypedDataDefinition'
import {
  canonicalJson,
  serverSignatureDigest,
  verifyServerSignature,
} from '../../simulator/signing/serverSignature'
import type { IntentOp } from '../../spec/index'

const server = privateKeyToAccount(generatePrivateKey())
const sponsor = privateKeyToAccount(generatePrivateKey()).address
const token = (chainId: number, symbol: string) => {
  const t = tokensByChain[chainId]?.find((x) => x.symbol === symbol)
  if (!t) throw new Error(`no ${symbol} on ${chainId}`)
  return t
}

/** An IntentOp over two origin chains with destination and pre-claim ops, two outputs, metadata. */
async function sampleIntent(method: FundingPlan['method']) {
  const usdc1 = token(1, 'USDC')
  const usdc8453 = token(8453, 'USDC')
  const weth8453 = token(8453, 'WETH')
  const source = (chainId: number, t: typeof usdc1, amount: bigint) => ({
    chainId,
    token: t.address,
    symbol: t.symbol,
    decimals: t.decimals,
    lockId: toLockId(DEVNET_LOCK_TAG, t.address),
    amount,
  })
  const requests: PlanRequest[] = [
    { symbol: 'USDC', token: usdc8453, amount: 70_000_000n },
    { symbol: 'WETH', token: weth8453, amount: 10n ** 18n },
  ]
  const plan: FundingPlan = {
    method,
    chainIds: [8453, 1],
    allocations: [
      {
        need: 71_000_000n,
        swapped: 0n,
        sources: [source(8453, usdc8453, 40_000_000n), source(1, usdc1, 31_000_000n)],
      },
      { need: 10n ** 18n, swapped: 0n, sources: [source(8453, weth8453, 10n ** 18n)] },
    ],
  }
  const execution = { to: usdc8453.address, value: '7', data: '0xa9059cbb00' as Hex }
  return buildIntentOp({
    plan,
    requests,
    account: {
      address: sponsor,
      accountType: 'EOA',
      isSmartAccount: false,
      setupOps: [],
      delegations: undefined,
    },
    recipient: sponsor,
    destinationChainId: 8453,
    destinationExecutions: [execution, { ...execution, value: 0, data: '0x' }],
    preClaimExecutions: { '1': [execution] },
    minGas: 500_000n,
    now: 1_800_000_000,
    ttlSeconds: 300,
    settlementLayer: 'INTENT_ARBITER',
    signedMetadata: {
      tokenPrices: { USDC: 1, ETH: 3000 },
      gasPrices: { '1': '1000000007', '8453': '1000000007' },
      account: { address: sponsor, accountType: 'EOA', setupOps: [] },
      schemeId: 'v1',
      fees: { sponsorFee: { relayer: 0, protocol: 0 }, protocolFees: {} },
    } as unknown as IntentOp['signedMetadata'],
    server,
  })
}

function time(name: string, n: number, f: () => unknown) {
  for (let i = 0; i < n / 4; i++) f()
  const t0 = process.cpuUsage()
  for (let i = 0; i < n; i++) f()
  const t = process.cpuUsage(t0)
  console.log(name.padEnd(36), ((t.user + t.system) / n).toFixed(1), 'µs')
}
async function main() {
  await new Promise((r) => setTimeout(r, 300))
  for (const method of ['COMPACT', 'PERMIT2'] as const) {
    const { intentOp } = await sampleIntent(method)
    console.log(method)
    time('serverSignatureDigest', 2000, () => serverSignatureDigest(intentOp))
    time('hashMandate', 2000, () => hashMandate(intentOp.elements[0]!.mandate))
    time('canonicalJson(signedMetadata)', 2000, () => canonicalJson(intentOp.signedMetadata))
    time('compactTypedData', 2000, () => compactTypedData(intentOp))
    const td = compactTypedData(intentOp)
    time('hashTypedData(compact)', 2000, () => hashTypedData(toTypedDataDefinition(td)))
    const p2 = permit2TypedData(intentOp.elements[0]!, intentOp.nonce, intentOp.expires)
    time('hashTypedData(permit2)', 2000, () => hashTypedData(toTypedDataDefinition(p2)))
    let n = 0
    const t0 = process.cpuUsage()
    for (let i = 0; i < 500; i++) if (await verifyServerSignature(intentOp, server.address)) n++
    const t = process.cpuUsage(t0)
    console.log('verifyServerSignature'.padEnd(36), ((t.user + t.system) / 500).toFixed(1), 'µs', n)
  }
}
void main()
