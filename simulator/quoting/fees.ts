import { pow10, priceE8 } from '../prices/prices'

/** The five fee parts of the spec's FeeParts, in raw units of one token. */
export type FeeParts = {
  gasFee: bigint
  bridgeFee: bigint
  protocolFee: bigint
  swapFee: bigint
  settlementFee: bigint
}
/** The fee parts, in the order the spec lists them. */
export const FEE_KEYS = ['gasFee', 'bridgeFee', 'protocolFee', 'swapFee', 'settlementFee'] as const

/** The fee model of the devnet (documented in docs/quoting.md). */
export const FEE_MODEL = {
  /** Gas of one claim on an origin chain, plus per extra id. */
  claimGas: 150_000n,
  claimGasPerExtraId: 40_000n,
  /** Gas of a fill on the destination (without destination ops: minGas is added). */
  fillGas: 120_000n,
  /** Gas price of a chain the quote has no price for (0.1 gwei). */
  priorityFeeWei: 100_000_000n,
  /** Estimated compressed size of a claim and of a fill transaction: the L1 data an OP-stack chain posts. */
  claimBytes: 500n,
  fillBytes: 400n,
  /** Basis points of the requested amount, when any of it comes from another chain than the destination. */
  bridgeBps: 5n,
  protocolBps: 2n,
  settlementBps: 1n,
  /**
   * Default swap fee: basis points of the swapped value (the part of a request funded by another
   * token, fees included), in the requested token. ETH <-> WETH is a 1:1 wrap, never a swap.
   * `createQuotingService({ swapFeeBps })` changes it.
   */
  swapBps: 10n,
} as const

/** Which parts the sponsor pays (`options.sponsorSettings`). */
export type Sponsorship = { gas: boolean; bridge: boolean; swap: boolean }

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b
/** `points` basis points of `amount`, rounded up (in the service's favour). */
export const bps = (amount: bigint, points: bigint): bigint => ceilDiv(amount * points, 10_000n)

/** Gas of each origin claim and of the fill, in wei (L1 data fee included, also shown apart), for a plan. */
export type GasEstimate = {
  origin: { chainId: number; gas: bigint; wei: bigint; l1Wei: bigint }[]
  destination: { chainId: number; gas: bigint; wei: bigint; l1Wei: bigint }
  totalWei: bigint
}

/** The L1 data fee of one transaction of `bytes` on a chain, in wei (0 off the OP stack). */
export type L1DataFee = (chainId: number, bytes: bigint) => bigint

// Hot paths use module-level helpers, not named closures: tsx (esbuild keepNames) names every
// named closure again each time it is created (an Object.defineProperty per closure per call).
const gasPriceOf = (gasPrices: Record<number, bigint>, chainId: number) =>
  gasPrices[chainId] ?? FEE_MODEL.priorityFeeWei

/** Estimates gas for claims on `originChains` (ids per chain) and the fill on the destination. */
export function estimateGas(parameters: {
  origins: { chainId: number; ids: number }[]
  destinationChainId: number
  minGas: bigint
  gasPrices: Record<number, bigint>
  /** The L1 data fee of an OP-stack transaction (default: none). */
  l1DataFee?: L1DataFee | undefined
}): GasEstimate {
  const { gasPrices, l1DataFee } = parameters
  const origin = parameters.origins.map(({ chainId, ids }) => {
    const gas = FEE_MODEL.claimGas + FEE_MODEL.claimGasPerExtraId * BigInt(Math.max(0, ids - 1))
    const l1Wei = l1DataFee ? l1DataFee(chainId, FEE_MODEL.claimBytes) : 0n
    return { chainId, gas, wei: gas * gasPriceOf(gasPrices, chainId) + l1Wei, l1Wei }
  })
  const destGas = FEE_MODEL.fillGas + parameters.minGas
  const destL1Wei = l1DataFee ? l1DataFee(parameters.destinationChainId, FEE_MODEL.fillBytes) : 0n
  const destination = {
    chainId: parameters.destinationChainId,
    gas: destGas,
    wei: destGas * gasPriceOf(gasPrices, parameters.destinationChainId) + destL1Wei,
    l1Wei: destL1Wei,
  }
  return { origin, destination, totalWei: origin.reduce((s, o) => s + o.wei, destination.wei) }
}

/** Converts wei of gas to raw units of a token, rounded up (integer prices of 1e-8 USD). */
export function weiToToken(
  wei: bigint,
  ethPrice: number,
  token: { decimals: number; price: number },
): bigint {
  const numerator = wei * priceE8(ethPrice) * pow10(token.decimals)
  const denominator = 10n ** 18n * priceE8(token.price)
  return denominator === 0n ? 0n : ceilDiv(numerator, denominator)
}

/** The fees of one token request: all of them, the user's part and the sponsor's (raw units of its token). */
export type RequestFees = { all: FeeParts; user: FeeParts; sponsored: FeeParts }

/**
 * The fees of one token request, in raw units of its token: `all` are the fees of the route,
 * `user` what the user pays after sponsorship, `sponsored` the rest. The gas of the whole intent
 * is charged to the first token request (`gasWei` is 0 for the others).
 */
export function feesForRequest(parameters: {
  amount: bigint
  crossChain: boolean
  gasWei: bigint
  ethPrice: number
  token: { decimals: number; price: number }
  sponsorship: Sponsorship
  /** Value of the request funded by other tokens (raw units of the requested token); the swap fee is charged on it. */
  swapped?: bigint | undefined
  /** Swap fee in basis points (default {@link FEE_MODEL.swapBps}). */
  swapBps?: bigint | undefined
}): RequestFees {
  const { amount, crossChain, gasWei, ethPrice, token, sponsorship } = parameters
  const swapped = parameters.swapped ?? 0n
  const all: FeeParts = {
    gasFee: gasWei > 0n ? weiToToken(gasWei, ethPrice, token) : 0n,
    bridgeFee: crossChain ? bps(amount, FEE_MODEL.bridgeBps) : 0n,
    protocolFee: bps(amount, FEE_MODEL.protocolBps),
    swapFee: swapped > 0n ? bps(swapped, parameters.swapBps ?? FEE_MODEL.swapBps) : 0n,
    settlementFee: bps(amount, FEE_MODEL.settlementBps),
  }
  const sponsoredKey = {
    gasFee: sponsorship.gas,
    bridgeFee: sponsorship.bridge,
    swapFee: sponsorship.swap,
  } as Record<string, boolean>
  const user = { ...all }
  const sponsored: FeeParts = { gasFee: 0n, bridgeFee: 0n, protocolFee: 0n, swapFee: 0n, settlementFee: 0n }
  for (const key of FEE_KEYS)
    if (sponsoredKey[key]) {
      sponsored[key] = all[key]
      user[key] = 0n
    }
  return { all, user, sponsored }
}

/** Sum of fee parts. */
export const sumFees = (fees: FeeParts): bigint => FEE_KEYS.reduce((s, k) => s + fees[k], 0n)

/** Fee parts as the spec's integer strings. */
export const feePartsJson = (fees: FeeParts) =>
  Object.fromEntries(FEE_KEYS.map((k) => [k, fees[k].toString()])) as Record<
    (typeof FEE_KEYS)[number],
    string
  >
