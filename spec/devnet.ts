import { z } from 'zod'
import { Address, Hex } from './common'

/** A token as the manifest lists it (DESIGN: control API, manifest). */
export const ManifestToken = z.looseObject({
  symbol: z.string(),
  name: z.string(),
  address: Address,
  decimals: z.number().int(),
})
export type ManifestToken = z.infer<typeof ManifestToken>

/** GET /_devnet/manifest: everything a client needs to use the devnet (DESIGN: control API). */
export const DevnetManifest = z.looseObject({
  service: z.looseObject({
    baseUrl: z.string(),
    apiKey: z.string(),
    versions: z.array(z.string()),
    defaultVersion: z.string(),
    strictVersion: z.boolean(),
    quoteTtlSeconds: z.number().int(),
    /** Gas price quotes charge per running chain, gwei (`--gas-price CHAIN=GWEI`; docs/quoting.md). */
    gasPrices: z.record(z.string(), z.string()).optional(),
  }),
  signers: z.looseObject({ server: Address, allocator: Address, relayer: Address }),
  chains: z.array(
    z.looseObject({
      chainId: z.number().int(),
      name: z.string(),
      rpcUrl: z.string(),
      forkUrl: z.string().optional(),
      contracts: z.record(z.string(), Address),
      tokens: z.array(ManifestToken),
    }),
  ),
  accounts: z.array(z.looseObject({ label: z.string(), address: Address, privateKey: Hex })),
  /** The BIP-39 mnemonic every devnet key is derived from (`--mnemonic`; test keys, not secrets). */
  mnemonic: z.string().optional(),
  clock: z.looseObject({ now: z.number().int(), offsetSeconds: z.number().int() }),
})
export type DevnetManifest = z.infer<typeof DevnetManifest>

/** Body of POST /_devnet/clock/advance. (DESIGN: devnet control API) */
export const ClockAdvanceRequest = z.object({
  seconds: z
    .number()
    .int('must be whole seconds')
    .positive()
    .max(10 * 365 * 24 * 3600),
})
export type ClockAdvanceRequest = z.infer<typeof ClockAdvanceRequest>

/** Body of POST /_devnet/revert. (DESIGN: devnet control API) */
export const RevertRequest = z.object({ id: z.string().min(1) })
export type RevertRequest = z.infer<typeof RevertRequest>

/** Largest USD price `POST /_devnet/prices` accepts (DESIGN: devnet control API): fee arithmetic stays exact below it. */
export const MAX_PRICE_USD = 1e12
/** Smallest USD price accepted (DESIGN: devnet control API): the price table keeps 1e-8 USD, so anything smaller would be 0. */
export const MIN_PRICE_USD = 1e-8

/** Body of POST /_devnet/prices: USD price per token symbol. (DESIGN: devnet control API) */
export const PricesRequest = z.object({
  prices: z.record(
    z.string().min(1).max(32),
    z
      .number()
      .finite()
      .min(MIN_PRICE_USD, `Too small: a price must be at least ${MIN_PRICE_USD} USD (limit)`)
      .max(MAX_PRICE_USD, `Too big: a price must be at most ${MAX_PRICE_USD} USD (limit)`),
  ),
})
export type PricesRequest = z.infer<typeof PricesRequest>

/** Body of POST /_devnet/faults. (DESIGN: devnet control API) */
export const FaultsRequest = z.object({
  enable: z.array(z.string()).optional(),
  disable: z.array(z.string()).optional(),
  clear: z.boolean().optional(),
})
export type FaultsRequest = z.infer<typeof FaultsRequest>

/** Answer of POST /_devnet/clock/advance: the devnet clock after the advance, unix seconds. (DESIGN: devnet control API) */
export const ClockAdvanceResponse = z.object({ now: z.number().int() })
export type ClockAdvanceResponse = z.infer<typeof ClockAdvanceResponse>

/** Answer of POST /_devnet/quotes/reset. (DESIGN: devnet control API) */
export const QuotesResetResponse = z.object({ reset: z.literal(true) })
export type QuotesResetResponse = z.infer<typeof QuotesResetResponse>

/** Answer of GET and POST /_devnet/faults: the enabled faults and the catalogue (name → what it breaks). (DESIGN: devnet control API) */
export const FaultsResponse = z.object({
  enabled: z.array(z.string()),
  known: z.record(z.string(), z.string()),
})
export type FaultsResponse = z.infer<typeof FaultsResponse>

/** Answer of POST /_devnet/snapshot: one id for the snapshot of every chain. (DESIGN: devnet control API) */
export const SnapshotResponse = z.object({ id: z.string().min(1) })
export type SnapshotResponse = z.infer<typeof SnapshotResponse>

/** Answer of POST /_devnet/revert. (DESIGN: devnet control API) */
export const RevertResponse = z.object({ reverted: z.literal(true), id: z.string().min(1) })
export type RevertResponse = z.infer<typeof RevertResponse>

/** Answer of POST /_devnet/prices: every price of the table after the update (USD by symbol). (DESIGN: devnet control API) */
export const PricesResponse = z.object({ prices: z.record(z.string(), z.number()) })
export type PricesResponse = z.infer<typeof PricesResponse>

/** Answer of GET /health: `ok` when every chain's node answers, `degraded` otherwise (DESIGN). */
export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  chains: z.array(z.object({ chainId: z.number().int(), up: z.boolean() })),
})
export type HealthResponse = z.infer<typeof HealthResponse>
