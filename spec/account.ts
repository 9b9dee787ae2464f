import { z } from 'zod'
import { Address, Hex, HexBytes } from './common'

/** A call set up before the account is used, e.g. its deployment (spec: Resources › Account). */
export const SetupOp = z.object({ to: Address, data: HexBytes })
export type SetupOp = z.infer<typeof SetupOp>

/**
 * Account, as sent in a route request's `account` and `recipient` (spec: Resources › Account).
 * `accountType` is checked by the service against the values it supports, so that an unknown
 * value gets a message naming the accepted ones.
 */
export const Account = z.object({
  address: Address,
  accountType: z.string().min(1).optional(),
  setupOps: z.array(SetupOp).optional(),
  mockSignature: z.string().optional(),
  delegations: z.record(z.string(), z.unknown()).optional(),
})
export type Account = z.infer<typeof Account>

/** emissaryConfig of the account inside signedMetadata (spec: Resources › Account). */
export const EmissaryConfig = z.looseObject({
  validatorAddress: Address,
  emissaryAddress: Address,
  emissaryEnable: z.looseObject({ allocatorSig: Hex, userSig: Hex }),
  settings: z.looseObject({ allocator: Address }),
})
export type EmissaryConfig = z.infer<typeof EmissaryConfig>

/**
 * The account as returned inside `signedMetadata`: the request's fields, with `delegations`
 * renamed `requiredDelegations`, plus `accountContext` and `emissaryConfig`
 * (spec: Resources › Account; SignedMetadata).
 */
export const SignedMetadataAccount = z.looseObject({
  address: Address,
  accountType: z.string().optional(),
  setupOps: z.array(z.looseObject({ to: Address, data: Hex })).optional(),
  requiredDelegations: z.record(z.string(), z.unknown()).optional(),
  accountContext: z.record(z.string(), z.unknown()).optional(),
  emissaryConfig: EmissaryConfig.optional(),
})
export type SignedMetadataAccount = z.infer<typeof SignedMetadataAccount>
