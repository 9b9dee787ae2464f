import { toAlpsStatus } from '../../http/versions/intentStatus'
import type { IntentService } from '../../intents/types'

/**
 * Polls an alps intent operation's status (every 50 ms) until it is one of `statuses`; throws
 * with the last status seen after `timeoutMs`.
 */
export async function waitForStatus(
  service: Pick<IntentService, 'getIntent'>,
  id: string,
  statuses: readonly string[],
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const record = await service.getIntent(id)
    const status = record && toAlpsStatus(record)
    if (status && statuses.includes(status.status)) return status
    if (Date.now() > deadline) throw new Error(`intent ${id} stuck at ${JSON.stringify(status)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
