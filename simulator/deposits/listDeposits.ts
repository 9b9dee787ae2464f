import type { DepositListQuery } from '../../spec'
import type { DepositStore } from './createDepositStore'
import type { DepositRecord, DepositView } from './depositRecord'
import { paginate } from './paginate'

/** A deposit as the API shows it: a copy, without the seq, the tenant and the signed payout. */
export function toDepositView(record: DepositRecord): DepositView {
  const { seq: _seq, tenantId: _tenantId, bridgeRawTransaction: _raw, ...view } = record
  return structuredClone(view)
}

/** One page of a tenant's deposits. */
export type DepositPage = { deposits: DepositView[]; nextCursor: string | null }

const sameHex = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/**
 * A tenant's deposits, newest first, filtered by `account`, `status` and `txHash`, and paged
 * (`cursor` is the previous page's `nextCursor`).
 */
export function listDeposits(
  store: DepositStore,
  tenantId: string,
  query: DepositListQuery = {},
): DepositPage {
  const matching = [...store.deposits.values()].filter(
    (d) =>
      d.tenantId === tenantId &&
      (query.account === undefined || sameHex(d.account, query.account)) &&
      (query.status === undefined || d.status === query.status) &&
      (query.txHash === undefined || sameHex(d.transactionHash, query.txHash)),
  )
  const { items, nextCursor } = paginate(matching, query)
  return { deposits: items.map(toDepositView), nextCursor }
}

/** One deposit of the tenant, or undefined (another tenant's deposit is not found either). */
export function getDeposit(store: DepositStore, tenantId: string, id: string): DepositView | undefined {
  const record = store.deposits.get(id)
  return record && record.tenantId === tenantId ? toDepositView(record) : undefined
}
