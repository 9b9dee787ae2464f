import type { TokenInfo } from '../../contracts/addresses'
import type { SponsorshipEntry } from '../../spec'
import { type PriceTable, STABLECOIN_SYMBOLS } from '../prices/prices'
import { DEFAULT_MAX_PRICE_DEVIATION_BPS, type DepositProcessorConfiguration } from './configStore'

/** The error codes a rejected deposit carries (spec: Errors). */
export type DepositErrorCode = 'TOKEN-3' | 'BALANCE-3' | 'BRIDGE-5'

/** Parameters of {@link evaluateDeposit}. */
export type EvaluateDepositParameters = {
  chainId: number
  /** The deposited token; undefined when the devnet does not know the contract. */
  token: TokenInfo | undefined
  /** The deposited contract's address (for messages when the token is unknown). */
  tokenAddress: string
  amount: bigint
  /** The token the deposit would be bridged into. */
  targetToken: TokenInfo | undefined
  config: DepositProcessorConfiguration
  prices: PriceTable
}

/** What {@link evaluateDeposit} decides. */
export type EvaluateDepositReturnType =
  | { accepted: true }
  | { accepted: false; errorCode: DepositErrorCode; message: string }

/**
 * Applies the deposit rules in the spec's order: whitelist (TOKEN-3), inclusive amount bounds
 * (BALANCE-3), stablecoin price deviation (BRIDGE-5). Pure: the caller passes the configuration
 * and prices of the moment.
 */
export function evaluateDeposit(parameters: EvaluateDepositParameters): EvaluateDepositReturnType {
  const { chainId, token, amount, targetToken, config, prices } = parameters
  if (!token)
    return {
      accepted: false,
      errorCode: 'TOKEN-3',
      message: `Token ${parameters.tokenAddress} is not supported on chain ${chainId}.`,
    }
  const whitelist = config.depositWhitelist[`eip155:${chainId}`]
  if (whitelist) {
    const entry = whitelist.find((e) => e.token.toLowerCase() === token.address.toLowerCase())
    if (!entry)
      return {
        accepted: false,
        errorCode: 'TOKEN-3',
        message: `Token ${token.symbol} (${token.address}) is not on the deposit whitelist of eip155:${chainId}.`,
      }
    if (entry.minAmount !== undefined && amount < BigInt(entry.minAmount))
      return {
        accepted: false,
        errorCode: 'BALANCE-3',
        message: `Amount ${amount} is below the minimum ${entry.minAmount} for ${token.symbol} on eip155:${chainId}.`,
      }
    if (entry.maxAmount !== undefined && amount > BigInt(entry.maxAmount))
      return {
        accepted: false,
        errorCode: 'BALANCE-3',
        message: `Amount ${amount} is above the maximum ${entry.maxAmount} for ${token.symbol} on eip155:${chainId}.`,
      }
  }
  if (targetToken && isStablecoin(token) && isStablecoin(targetToken)) {
    const maxBps = config.maxPriceDeviationBps ?? DEFAULT_MAX_PRICE_DEVIATION_BPS
    const deviation = priceDeviationBps(token.symbol, targetToken.symbol, prices)
    if (deviation === undefined)
      return {
        accepted: false,
        errorCode: 'BRIDGE-5',
        message: `No price for ${token.symbol} or ${targetToken.symbol}: the deviation cannot be checked.`,
      }
    if (deviation > maxBps)
      return {
        accepted: false,
        errorCode: 'BRIDGE-5',
        message: `Price deviation ${deviation} bps between ${token.symbol} and ${targetToken.symbol} exceeds maxPriceDeviationBps ${maxBps}.`,
      }
  }
  return { accepted: true }
}

/** True for the USD stablecoins of {@link STABLECOIN_SYMBOLS}. */
export function isStablecoin(token: TokenInfo): boolean {
  return STABLECOIN_SYMBOLS.has(token.symbol.toUpperCase())
}

/**
 * The price deviation of a stablecoin-to-stablecoin bridge, in basis points: the largest of
 * each side's distance from the $1 peg and the in/out rate's distance from 1:1, rounded to
 * 1/1000 bp so that a deviation of exactly the limit is not lost to float noise.
 */
export function priceDeviationBps(
  symbolIn: string,
  symbolOut: string,
  prices: PriceTable,
): number | undefined {
  const priceIn = prices.get(symbolIn)
  const priceOut = prices.get(symbolOut)
  if (priceIn === undefined || priceOut === undefined) return undefined
  const deviation = Math.max(Math.abs(priceIn - 1), Math.abs(priceOut - 1), Math.abs(priceIn / priceOut - 1))
  return Math.round(deviation * 10_000 * 1000) / 1000
}

/** Fee on an unsponsored bridge, in basis points of the bridged amount. */
export const BRIDGE_FEE_BPS = 10n
/** Gas the relayer's payout costs: an ERC-20 transfer, a native transfer. */
export const PAYOUT_GAS = { erc20: 65_000n, native: 21_000n } as const

/** Parameters of {@link planPayout}. */
export type PlanPayoutParameters = {
  amount: bigint
  token: TokenInfo
  targetToken: TokenInfo
  /** Sponsorship entry of the source chain (undefined: none). */
  sponsorship: SponsorshipEntry | undefined
  /** Whether the account has code on the target chain (for `gas: 'deployed'`). */
  accountDeployed: boolean
  /** Target chain gas price, wei. */
  gasPrice: bigint
  prices: PriceTable
}

/** The amount the account receives and the fees deducted from it. */
export type PlanPayoutReturnType = {
  /** The deposit converted into the target token at the price table, before fees. */
  grossAmount: bigint
  gasFee: bigint
  bridgingFee: bigint
  /** grossAmount - gasFee - bridgingFee (negative when the fees exceed the deposit). */
  amount: bigint
  gasSponsored: boolean
  bridgingSponsored: boolean
}

const PRICE_SCALE = 100_000_000n
const scaledPrice = (prices: PriceTable, symbol: string): bigint => {
  const price = prices.get(symbol)
  if (price === undefined) throw new RangeError(`No price for ${symbol}.`)
  return BigInt(Math.round(price * Number(PRICE_SCALE)))
}

/**
 * Converts a deposit into the target token and deducts the fees nobody sponsors:
 * - gross = amount × price(in) / price(out), rescaled between decimals (same symbol: decimals only);
 * - bridging fee = ceil(gross × {@link BRIDGE_FEE_BPS} / 10 000) unless `bridging: 'all'`;
 * - gas fee = {@link PAYOUT_GAS} × target gas price (wei) in ETH, at the price table, in the
 *   target token, unless `gas: 'all'`, or `gas: 'deployed'` and the account has code.
 */
export function planPayout(parameters: PlanPayoutParameters): PlanPayoutReturnType {
  const { amount, token, targetToken, sponsorship, prices } = parameters
  const sameSymbol = token.symbol.toUpperCase() === targetToken.symbol.toUpperCase()
  const valueIn = sameSymbol ? PRICE_SCALE : scaledPrice(prices, token.symbol)
  const valueOut = sameSymbol ? PRICE_SCALE : scaledPrice(prices, targetToken.symbol)
  const grossAmount =
    (amount * valueIn * 10n ** BigInt(targetToken.decimals)) / (valueOut * 10n ** BigInt(token.decimals))

  const gasSponsored =
    sponsorship?.gas === 'all' || (sponsorship?.gas === 'deployed' && parameters.accountDeployed)
  const bridgingSponsored = sponsorship?.bridging === 'all'
  const bridgingFee = bridgingSponsored ? 0n : (grossAmount * BRIDGE_FEE_BPS + 9_999n) / 10_000n
  let gasFee = 0n
  if (!gasSponsored) {
    const gasWei =
      (targetToken.address === '0x0000000000000000000000000000000000000000'
        ? PAYOUT_GAS.native
        : PAYOUT_GAS.erc20) * parameters.gasPrice
    // wei → target token units: wei × price(ETH) / price(token) × 10^decimals / 10^18, rounded up.
    const numerator = gasWei * scaledPrice(prices, 'ETH') * 10n ** BigInt(targetToken.decimals)
    const denominator = scaledPrice(prices, targetToken.symbol) * 10n ** 18n
    gasFee = (numerator + denominator - 1n) / denominator
  }
  return {
    grossAmount,
    gasFee,
    bridgingFee,
    amount: grossAmount - gasFee - bridgingFee,
    gasSponsored,
    bridgingSponsored,
  }
}
