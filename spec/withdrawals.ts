import { z } from 'zod'
import { Address, IntegerLike } from './common'

/**
 * Amounts and ids are JSON numbers in the spec; raw amounts and lock ids exceed 2^53, so the
 * simulator also accepts and answers integer strings where a number would lose precision.
 */
const NumberOrIntegerString = z.union([z.number(), z.string().regex(/^\d+$/)])

/** Request of POST /withdrawals (spec: Resources › Withdrawal (single)). */
export const WithdrawalRequest = z.object({
  account: Address,
  chainId: IntegerLike,
  tokenAddress: Address,
  amount: IntegerLike.refine((value) => BigInt(value) > 0n, 'must be greater than zero'),
  recipient: Address,
})
export type WithdrawalRequest = z.infer<typeof WithdrawalRequest>

/** A `{claimant, amount}` component (spec: Resources › Withdrawal). */
export const Component = z.looseObject({ claimant: NumberOrIntegerString, amount: NumberOrIntegerString })
export type Component = z.infer<typeof Component>

/** Response of POST /withdrawals (spec: Resources › Withdrawal (single)). */
export const WithdrawalResponse = z.looseObject({
  allocatorData: z.string().regex(/^0x[a-fA-F0-9]*$/),
  transferDetails: z.looseObject({
    id: NumberOrIntegerString,
    nonce: NumberOrIntegerString,
    expires: NumberOrIntegerString,
    recipients: z.array(Component),
  }),
})
export type WithdrawalResponse = z.infer<typeof WithdrawalResponse>

/** Request of POST /batch-withdrawals (spec: Resources › Withdrawal (batch)). */
export const BatchWithdrawalRequest = z.object({
  account: Address,
  chainId: IntegerLike,
  transfers: z
    .array(
      z.object({
        recipient: Address,
        tokenAddress: Address,
        amount: IntegerLike.refine((value) => BigInt(value) > 0n, 'must be greater than zero'),
      }),
    )
    .min(1, 'at least one transfer is needed'),
})
export type BatchWithdrawalRequest = z.infer<typeof BatchWithdrawalRequest>

/** Response of POST /batch-withdrawals (spec: Resources › Withdrawal (batch)). */
export const BatchWithdrawalResponse = z.looseObject({
  allocatorData: z.string().regex(/^0x[a-fA-F0-9]*$/),
  batchTransferDetails: z.looseObject({
    nonce: NumberOrIntegerString,
    expires: NumberOrIntegerString,
    transfers: z.array(z.looseObject({ id: NumberOrIntegerString, portions: z.array(Component) })),
  }),
})
export type BatchWithdrawalResponse = z.infer<typeof BatchWithdrawalResponse>
