import type { Address, Hex } from 'viem'
import type { TokenInfo } from '../../../contracts/addresses'

/**
 * What {@link sampleIntentParameters} needs of a tree: its token list and lock-id helper. Given,
 * not imported, so that scripts/bench/domainMicro.ts builds the same IntentOp with another
 * tree's modules (`--tree`) as the tests do with this one's.
 */
export type SampleIntentModules = {
  tokensByChain: Record<number, readonly TokenInfo[] | undefined>
  toLockId: (lockTag: Hex, token: Address) => bigint
  DEVNET_LOCK_TAG: Hex
}

/**
 * The parameters of `buildIntentOp` for an IntentOp over two origin chains (USDC on 8453 and 1,
 * WETH on 8453) with destination and pre-claim ops, two outputs and signed metadata: the
 * fixture of the EIP-712 tests and of the domain bench. `amount` is USDC's share on 8453.
 *
 * @example
 * const { intentOp } = await buildIntentOp(sampleIntentParameters(modules, { method: 'COMPACT', server, sponsor }))
 */
export function sampleIntentParameters(
  modules: SampleIntentModules,
  options: {
    method: 'COMPACT' | 'PERMIT2'
    server: unknown
    sponsor: Address
    amount?: bigint | undefined
    signNow?: boolean | undefined
  },
) {
  const { method, server, sponsor, amount = 40_000_000n, signNow } = options
  const token = (chainId: number, symbol: string) => {
    const found = modules.tokensByChain[chainId]?.find((x) => x.symbol === symbol)
    if (!found) throw new Error(`no ${symbol} on ${chainId}`)
    return found
  }
  const usdc1 = token(1, 'USDC')
  const usdc8453 = token(8453, 'USDC')
  const weth8453 = token(8453, 'WETH')
  const source = (chainId: number, t: TokenInfo, sourceAmount: bigint) => ({
    chainId,
    token: t.address,
    symbol: t.symbol,
    decimals: t.decimals,
    lockId: modules.toLockId(modules.DEVNET_LOCK_TAG, t.address),
    amount: sourceAmount,
  })
  const execution = { to: usdc8453.address, value: '7', data: '0xa9059cbb00' as Hex }
  return {
    plan: {
      method,
      chainIds: [8453, 1],
      allocations: [
        {
          need: 71_000_000n,
          swapped: 0n,
          sources: [source(8453, usdc8453, amount), source(1, usdc1, 31_000_000n)],
        },
        { need: 10n ** 18n, swapped: 0n, sources: [source(8453, weth8453, 10n ** 18n)] },
      ],
    },
    requests: [
      { symbol: 'USDC', token: usdc8453, amount: 70_000_000n },
      { symbol: 'WETH', token: weth8453, amount: 10n ** 18n },
    ],
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
    },
    server,
    ...(signNow !== undefined && { signNow }),
  }
}
