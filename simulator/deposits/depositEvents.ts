import { createHash } from 'node:crypto'
import type { DepositRecord, DepositStatus } from './depositRecord'
import type { DepositContext } from './types'

/** Error code of a deposit that passed the rules but could not be paid out (see docs/deposit-processor.md). */
export const BRIDGE_ERROR_CODE = 'BRIDGE-1'

/** Where a payout goes, as `bridge-started` and `bridge-complete` report it. */
export type DepositEventTarget = {
  chain: string
  token: string
  symbol: string
  amount: string
  fees: { gas: string; bridging: string }
  /** The payout transaction, once it is known. */
  transactionHash?: string
}

/** What each event of a deposit adds to `data`, by event type (docs/deposit-processor.md › Events). */
export type DepositEventData = {
  'deposit-received': Record<never, never>
  'bridge-started': { target: DepositEventTarget }
  'bridge-complete': { target: DepositEventTarget }
  'bridge-failed': { errorCode: string; message: string }
}

/** The types of the events a deposit gives, in the order it gives them. */
export type DepositEventType = keyof DepositEventData

/**
 * The id of a deposit's event, derived from the tenant, the deposit and the type: the same event
 * is never created twice, even when blocks are scanned again.
 */
export function depositEventId(tenantId: string, depositId: string, type: DepositEventType): string {
  return `evt_${createHash('sha256').update(`${tenantId}|${depositId}|${type}`).digest('hex').slice(0, 32)}`
}

/**
 * Stores an event of a deposit in the outbox: `data` gets the deposit's id, account and
 * `deposit{transactionHash, chain, token, symbol, amount, sender}` besides `extra`.
 */
export function emitDepositEvent<type extends DepositEventType>(
  context: DepositContext,
  record: DepositRecord,
  type: type,
  extra: DepositEventData[type],
): void {
  context.events.publish({
    type: 'deposit',
    tenant: record.tenantId,
    depositId: record.id,
    step: type,
    status: record.status,
    chainId: record.chainId,
    account: record.account,
    errorCode: record.errorCode ?? null,
    at: record.updatedAt,
  })
  context.outbox.enqueue({
    tenant: record.tenantId,
    type,
    eventId: depositEventId(record.tenantId, record.id, type),
    data: {
      depositId: record.id,
      account: record.account,
      ...extra,
      deposit: {
        transactionHash: record.transactionHash,
        chain: `eip155:${record.chainId}`,
        token: record.token,
        symbol: record.symbol,
        amount: record.amount,
        sender: record.sender,
      },
    },
  })
}

/** Marks a deposit rejected or failed and reports it with `bridge-failed` (call `store.save()` after). */
export function failDeposit(
  context: DepositContext,
  record: DepositRecord,
  status: Extract<DepositStatus, 'rejected' | 'failed'>,
  errorCode: string,
  message: string,
): void {
  context.store.update(record, { status, errorCode, message })
  emitDepositEvent(context, record, 'bridge-failed', { errorCode, message })
}
