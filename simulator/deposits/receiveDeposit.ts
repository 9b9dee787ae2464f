import { getAddress } from 'viem'
import type { ObservedDeposit } from './chainWatcher'
import { BRIDGE_ERROR_CODE, emitDepositEvent, failDeposit } from './depositEvents'
import type { DepositRecord } from './depositRecord'
import { resolveTargetToken } from './resolveTargetToken'
import type { DepositContext } from './types'

/**
 * Records a newly seen deposit to a registered account (`deposit-received`) and applies the
 * rules: a rejected deposit stays where it is (`bridge-failed`), an accepted one stays
 * `processing` until {@link payOut}. A deposit id seen before is ignored.
 *
 * @returns the new record, or undefined when the deposit was ignored.
 */
export function receiveDeposit(
  context: DepositContext,
  observed: ObservedDeposit,
): DepositRecord | undefined {
  const { store, tokens } = context
  const registration = store.config.registration(observed.account)
  if (!registration || store.deposits.has(observed.id)) return undefined
  const token = tokens.token(observed.chainId, observed.token)
  const now = store.isoNow()
  const record: DepositRecord = {
    seq: store.nextSeq(),
    tenantId: registration.tenant,
    id: observed.id,
    account: getAddress(observed.account),
    chainId: observed.chainId,
    token: getAddress(observed.token),
    symbol: token?.symbol ?? null,
    amount: observed.amount.toString(),
    sender: getAddress(observed.sender),
    transactionHash: observed.transactionHash,
    blockNumber: observed.blockNumber.toString(),
    logIndex: observed.logIndex,
    status: 'processing',
    createdAt: now,
    updatedAt: now,
  }
  store.deposits.set(record.id, record)
  emitDepositEvent(context, record, 'deposit-received', {})
  const targetToken = resolveTargetToken(tokens, registration, token)
  const config = store.config.config(registration.tenant)
  const verdict = context.evaluate({
    chainId: observed.chainId,
    token,
    tokenAddress: observed.token,
    amount: observed.amount,
    targetToken,
    config,
    prices: context.prices,
  })
  if (!verdict.accepted) {
    failDeposit(context, record, 'rejected', verdict.errorCode, verdict.message)
  } else if (!targetToken)
    failDeposit(
      context,
      record,
      'failed',
      BRIDGE_ERROR_CODE,
      `No counterpart of ${token?.symbol} on chain ${registration.targetChainId}; register a targetToken.`,
    )
  return record
}
