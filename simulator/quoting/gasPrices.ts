import { formatGwei, parseGwei } from 'viem'
import { BaseError } from '../../spec/BaseError'

/**
 * Default gas price per chain, in gwei, near what each chain runs at: Ethereum at gwei level, the
 * OP-stack chains and Arbitrum at their sub-gwei levels. `--gas-price CHAIN=GWEI` changes them.
 */
export const DEFAULT_GAS_PRICES_GWEI: Readonly<Record<number, string>> = {
  1: '10',
  10: '0.001',
  8453: '0.01',
  42161: '0.01',
}

/** Gas price of a chain the table does not name, in gwei. */
export const OTHER_CHAIN_GAS_PRICE_GWEI = '1'

/** The L1 (Ethereum) an OP-stack chain posts its data to: its base fee is chain 1's gas price. */
const L1_CHAIN_ID = 1

/** The OP-stack chains: their transactions also pay an L1 data fee (`opGasParams`). */
export const OP_STACK_CHAINS: ReadonlySet<number> = new Set([10, 8453])

/** Ecotone's L1 fee scalars of OP mainnet and Base, and the blob base fee (1 wei: blobs are cheap). */
export const L1_FEE_PARAMS = { baseFeeScalar: 1368n, blobFeeScalar: 810949n, l1BlobBaseFeeWei: 1n } as const

/** Highest gas price accepted, in gwei (keeps fee arithmetic and the prices sane). */
export const MAX_GAS_PRICE_GWEI = 100_000

/** The gas prices quotes charge, per chain. */
export type GasPriceTable = {
  /** Gas price of `chainId`, in wei. */
  wei(chainId: number): bigint
  /** Gas price of `chainId`, in gwei (as a decimal string). */
  gwei(chainId: number): string
  /** The L1 base fee the OP-stack chains' data fees use (chain 1's gas price), in wei. */
  readonly l1BaseFeeWei: bigint
  /** The L1 data fee of one transaction of `bytes` on `chainId` (0 off the OP stack), in wei. */
  l1DataFeeWei(chainId: number, bytes: bigint): bigint
}

/** A `--gas-price` value that is not `CHAIN=GWEI` with a known-looking chain id and a sane price. */
export class InvalidGasPriceError extends BaseError {
  override name = 'Quote.InvalidGasPriceError'
  constructor(message: string) {
    super(message, { docsPath: 'docs/quoting.md' })
  }
}

/** Checks a gas price in gwei and answers it in wei. */
function toWei(chainId: number, gwei: string): bigint {
  if (!/^\d+(\.\d{1,9})?$/.test(gwei))
    throw new InvalidGasPriceError(
      `Gas price of chain ${chainId} must be a decimal number of gwei (up to 9 decimals), got ${gwei}.`,
    )
  const wei = parseGwei(gwei)
  if (wei <= 0n || wei > parseGwei(String(MAX_GAS_PRICE_GWEI)))
    throw new InvalidGasPriceError(
      `Gas price of chain ${chainId} must be above 0 and at most ${MAX_GAS_PRICE_GWEI} gwei, got ${gwei}.`,
    )
  return wei
}

/**
 * Creates the gas price table: {@link DEFAULT_GAS_PRICES_GWEI}, with `overrides` (gwei per chain
 * id) over it. Throws {@link InvalidGasPriceError} for a price that is not a positive number of
 * gwei. The L1 data fee follows Ecotone: `bytes × (16 × baseFeeScalar × l1BaseFee + blobFeeScalar
 * × l1BlobBaseFee) / 1e6`.
 *
 * @example
 * const gas = createGasPrices({ 8453: '0.05' })
 * gas.wei(8453) // 50000000n
 */
export function createGasPrices(overrides: Readonly<Record<number, string>> = {}): GasPriceTable {
  const table = new Map<number, bigint>()
  for (const [chainId, gwei] of Object.entries({ ...DEFAULT_GAS_PRICES_GWEI, ...overrides }))
    table.set(Number(chainId), toWei(Number(chainId), gwei))
  const other = parseGwei(OTHER_CHAIN_GAS_PRICE_GWEI)
  const wei = (chainId: number) => table.get(chainId) ?? other
  const l1BaseFeeWei = wei(L1_CHAIN_ID)
  const perByte =
    16n * L1_FEE_PARAMS.baseFeeScalar * l1BaseFeeWei +
    L1_FEE_PARAMS.blobFeeScalar * L1_FEE_PARAMS.l1BlobBaseFeeWei
  return {
    wei,
    gwei: (chainId) => formatGwei(wei(chainId)),
    l1BaseFeeWei,
    l1DataFeeWei: (chainId, bytes) => (OP_STACK_CHAINS.has(chainId) ? (bytes * perByte) / 1_000_000n : 0n),
  }
}
