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
