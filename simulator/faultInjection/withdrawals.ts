import type { Hex } from 'viem'
import type { Faults } from '../faults/faults'
import type { WithdrawalService } from '../withdrawals/types'

/** One byte of the allocator's signature changed, so the Compact refuses it. */
const tamper = (allocatorData: string): Hex =>
  `0x${allocatorData.slice(2, 10)}${allocatorData.slice(10, 12) === 'ff' ? '00' : 'ff'}${allocatorData.slice(12)}`

/**
 * The withdrawal service with `withdrawals.bad-allocator-signature` around it: answers
 * allocatorData the Compact refuses.
 *
 * @example
 * const withdrawals = withWithdrawalFaults(createWithdrawalService(parameters), faults)
 */
export function withWithdrawalFaults(
  service: WithdrawalService,
  faults: Pick<Faults, 'has'>,
): WithdrawalService {
  const deliver = <T extends { allocatorData: string }>(answer: T): T =>
    faults.has('withdrawals.bad-allocator-signature')
      ? { ...answer, allocatorData: tamper(answer.allocatorData) }
      : answer
  return {
    ...service,
    withdraw: async (request) => deliver(await service.withdraw(request)),
    batchWithdraw: async (request) => deliver(await service.batchWithdraw(request)),
  }
}

/**
 * The lock-balance bound of withdrawals with `withdrawals.refuse-exact-balance` (the bound
 * treated as exclusive) and `withdrawals.sign-over-balance` (no bound at all).
 *
 * @example
 * createWithdrawalService({ ...parameters, exceeds: withdrawalBound(faults) })
 */
export function withdrawalBound(faults: Pick<Faults, 'has'>): (amount: bigint, balance: bigint) => boolean {
  return (amount, balance) =>
    faults.has('withdrawals.refuse-exact-balance')
      ? amount >= balance
      : amount > balance && !faults.has('withdrawals.sign-over-balance')
}
