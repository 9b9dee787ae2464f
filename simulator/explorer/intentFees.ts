import type { IntentOp } from '../../spec'
import { FEE_MODEL } from '../quoting/fees'
import type { ExplorerFees } from './schemas'
import { tokenAmount, tokenOfLockId } from './tokenAmount'

const WEI_PER_ETH = 1e18
const ceilBps = (amount: bigint, points: bigint) => (amount * points + 9_999n) / 10_000n

/** USD of a raw token amount at the signed prices, or undefined when the token or its price is unknown. */
function usdOf(chainId: number, lockId: string, amount: string | bigint, prices: Record<string, number>) {
  const token = tokenAmount(chainId, tokenOfLockId(lockId), amount)
  const price = token.symbol ? prices[token.symbol] : undefined
  if (price === undefined || token.decimals === null) return undefined
  return (Number(amount) / 10 ** token.decimals) * price
}

/** The L1 data fee of `bytes` on a chain with `opGasParams` (Ecotone), in wei; 0 without them. */
function l1Wei(params: Record<string, string> | undefined, bytes: bigint): bigint {
  if (!params) return 0n
  const perByte =
    16n * BigInt(params.baseFeeScalar ?? 0) * BigInt(params.l1BaseFee ?? 0) +
    BigInt(params.blobFeeScalar ?? 0) * BigInt(params.l1BlobBaseFee ?? 0)
  return (bytes * perByte) / 1_000_000n
}

/**
 * The fee parts of an intent, in USD, as it was quoted: recomputed from its signed IntentOp with
 * the quote's fee model (docs/quoting.md "Price"): gas from the signed gas prices and
 * `opGasParams` (claims, the fill and their L1 data), protocol from `fees.protocolFees`, bridge
 * and settlement from the requested amounts, and the swap fee as what the account gives beyond
 * the rest (0 without swaps). Null parts: a token without a signed price.
 *
 * @example
 * intentFees(record.payload.intentOp) // { gasUsd: 0.0093, bridgeUsd: 0, protocolUsd: 0.0002, … }
 */
export function intentFees(intentOp: IntentOp): ExplorerFees {
  // A record written by an older devnet may lack parts: what is missing counts as unknown.
  const metadata = (intentOp.signedMetadata ?? {}) as {
    tokenPrices?: Record<string, number>
    gasPrices?: Record<string, string>
    opGasParams?: Record<string, Record<string, string>>
    fees?: { protocolFees?: Record<string, string>; sponsorFee?: { relayer?: number; protocol?: number } }
  }
  const prices = metadata.tokenPrices ?? {}
  const gasPrices = metadata.gasPrices ?? {}
  const mandate = intentOp.elements[0]?.mandate
  const destination = Number(mandate?.destinationChainId ?? intentOp.elements[0]?.chainId ?? 0)
  const gasPriceOf = (chainId: number) => BigInt(gasPrices[String(chainId)] ?? FEE_MODEL.priorityFeeWei)
  let wei = 0n
  for (const element of intentOp.elements) {
    const chainId = Number(element.chainId)
    const ids = BigInt(Math.max(0, (element.idsAndAmounts ?? []).length - 1))
    wei += (FEE_MODEL.claimGas + FEE_MODEL.claimGasPerExtraId * ids) * gasPriceOf(chainId)
    wei += l1Wei(metadata.opGasParams?.[String(chainId)], FEE_MODEL.claimBytes)
  }
  wei += (FEE_MODEL.fillGas + BigInt(mandate?.minGas ?? 0)) * gasPriceOf(destination)
  wei += l1Wei(metadata.opGasParams?.[String(destination)], FEE_MODEL.fillBytes)
  const gasUsd = prices.ETH === undefined ? null : (Number(wei) / WEI_PER_ETH) * prices.ETH

  const outputs = (mandate?.tokenOut ?? []).map(([lockId, amount]) => ({ lockId, amount: BigInt(amount) }))
  const crossChain = intentOp.elements.some((element) => Number(element.chainId) !== destination)
  const partUsd = (points: bigint) => {
    let sum = 0
    for (const { lockId, amount } of outputs) {
      const usd = usdOf(destination, lockId, ceilBps(amount, points), prices)
      if (usd === undefined) return null
      sum += usd
    }
    return sum
  }
  const bridgeUsd = crossChain ? partUsd(FEE_MODEL.bridgeBps) : 0
  const settlementUsd = partUsd(FEE_MODEL.settlementBps)
  let protocolUsd: number | null = 0
  for (const [token, amount] of Object.entries(metadata.fees?.protocolFees ?? {})) {
    const usd = usdOf(destination, token, amount, prices)
    protocolUsd = usd === undefined || protocolUsd === null ? null : protocolUsd + usd
  }
  // What the account gives beyond the outputs, at the signed prices: every fee it pays.
  let givenUsd: number | null = 0
  for (const element of intentOp.elements)
    for (const [lockId, amount] of element.idsAndAmounts ?? []) {
      const usd = usdOf(Number(element.chainId), lockId, amount, prices)
      givenUsd = usd === undefined || givenUsd === null ? null : givenUsd + usd
    }
  let outUsd: number | null = 0
  for (const { lockId, amount } of outputs) {
    const usd = usdOf(destination, lockId, amount, prices)
    outUsd = usd === undefined || outUsd === null ? null : outUsd + usd
  }
  const totalUsd = givenUsd === null || outUsd === null ? null : Math.max(0, givenUsd - outUsd)
  const sponsor = metadata.fees?.sponsorFee
  const known = [gasUsd, bridgeUsd, protocolUsd, settlementUsd]
  // The swap fee is what remains (rounding aside); only when a source is another token (ETH and
  // WETH are one: a wrap is not a swap).
  const symbolOf = (chainId: number, lockId: string) => {
    const symbol = tokenAmount(chainId, tokenOfLockId(lockId), 0n).symbol ?? lockId
    return symbol === 'WETH' ? 'ETH' : symbol
  }
  const wanted = new Set(outputs.map((o) => symbolOf(destination, o.lockId)))
  const swaps = intentOp.elements.some((element) =>
    (element.idsAndAmounts ?? []).some(([lockId]) => !wanted.has(symbolOf(Number(element.chainId), lockId))),
  )
  const swapUsd =
    !swaps || totalUsd === null || known.some((part) => part === null)
      ? swaps
        ? null
        : 0
      : Math.max(0, totalUsd - (known as number[]).reduce((a, b) => a + b, 0))
  return {
    gasUsd,
    bridgeUsd,
    protocolUsd,
    swapUsd,
    settlementUsd,
    totalUsd,
    sponsored: Boolean(sponsor?.relayer || sponsor?.protocol),
    gasPricesWei: gasPrices,
  }
}
