import type { IntentRecord } from '../intents/intentStore'
import { SettlementStepError } from './errors'
import type { SettlementContext, SettlementPayload } from './types'

/** The intent's current record in the store; throws when the store has none. */
export function getIntentRecord(
  context: Pick<SettlementContext, 'store'>,
  id: string,
): IntentRecord<SettlementPayload> {
  const record = context.store.get(id)
  if (!record) throw new SettlementStepError(`No intent with id ${id}.`)
  return record
}
