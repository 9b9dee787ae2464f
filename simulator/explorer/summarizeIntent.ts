import type { IntentRecord } from '../intents/intentStore'
import type { SignedIntent } from '../intents/types'
import type { ExplorerIntentSummary } from './schemas'
import { tokenAmount, tokenOfLockId } from './tokenAmount'

/**
 * One intent as the explorer lists it: account, chains, what it gives and gets, its status and
 * fill transaction. Pure: it reads only the record.
 *
 * @example
 * summarizeIntent(store.get(id)!) // { id, status: 'COMPLETED', fillTransactionHash: '0x…', … }
 */
export function summarizeIntent(record: IntentRecord<SignedIntent>): ExplorerIntentSummary {
  const { intentOp } = record.payload
  const mandate = intentOp.elements[0]?.mandate
  return {
    id: record.id,
    intentId: record.intentId,
    // A quote id means a blanc submission (POST /intents/{id}); an operation sent whole is alps.
    version: record.intentId === null ? 'alps' : 'blanc',
    account: record.sponsor,
    recipient: record.recipient,
    originChainIds: record.claims.map((c) => c.chainId),
    destinationChainId: record.destinationChainId,
    inputs: intentOp.elements.flatMap((element) =>
      element.idsAndAmounts.map(([lockId, amount]) =>
        tokenAmount(Number(element.chainId), tokenOfLockId(lockId), amount),
      ),
    ),
    outputs: (mandate?.tokenOut ?? []).map(([lockId, amount]) =>
      tokenAmount(record.destinationChainId, tokenOfLockId(lockId), amount),
    ),
    status: record.status,
    createdAt: record.createdAt,
    fillTransactionHash: record.fill.txHash,
    failureReason: record.failure ? `${record.failure.step}: ${record.failure.reason}` : null,
  }
}
