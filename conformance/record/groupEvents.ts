import { specSchemas } from '../../spec'
import { jsonEqual } from '../runner/matchers'
import { parseJsonExact } from '../runner/parseJsonExact'
import { VERSION_HEADERS } from '../runner/versionHeaders'
import { journalEvents } from './journal'
import type { RecordedExchange, RecordedTransaction, RecordedWebhook, Recording } from './recording'

/** A step's worth of events: one exchange (or a client's identical polls), a transaction, a webhook. */
export type Group =
  | { kind: 'http'; first: RecordedExchange; last: RecordedExchange; count: number }
  | { kind: 'chain'; event: RecordedTransaction }
  | { kind: 'webhook'; event: RecordedWebhook }

/** Webhook deliveries held back at most while a client polls (past it, the poll's group ends). */
const MAX_HELD_WEBHOOKS = 64

/**
 * The recording's events in order (read from its journal), consecutive identical GETs (a client
 * polling) as one group. Webhook deliveries that arrive while a client polls (the service's, not
 * the client's doing) do not end its poll: they follow the poll's group (a webhook step finds a
 * delivery that came before it), so a poll of a deposit list broken by the deposit's webhooks is
 * still one step, ending on the last answer the client saw, not an in-between one a faster or
 * slower replay cannot see again.
 */
export async function* groupEvents(recording: Recording): AsyncGenerator<Group> {
  let previous: Group | undefined
  let held: Group[] = []
  const flush = function* () {
    if (previous) yield previous
    previous = undefined
    yield* held
    held = []
  }
  for await (const event of journalEvents(recording.journal)) {
    if (event.kind === 'webhook' && previous?.kind === 'http' && previous.last.method === 'GET') {
      held.push({ kind: 'webhook', event })
      if (held.length >= MAX_HELD_WEBHOOKS) yield* flush()
      continue
    }
    if (event.kind !== 'http') {
      yield* flush()
      yield event.kind === 'chain' ? { kind: 'chain', event } : { kind: 'webhook', event }
      continue
    }
    if (
      previous?.kind === 'http' &&
      event.method === 'GET' &&
      previous.last.method === 'GET' &&
      previous.last.path === event.path &&
      previous.last.apiKey === event.apiKey &&
      jsonEqual(previous.last.headers, event.headers)
    ) {
      previous.last = event
      previous.count++
    } else {
      yield* flush()
      previous = { kind: 'http', first: event, last: event, count: 1 }
    }
  }
  yield* flush()
}

/** The version a request spoke, as a scenario step writes it. */
export function versionOf(header: string | undefined): 'alps' | 'blanc' | 'omit' | { raw: string } {
  if (header === undefined) return 'omit'
  if (header === VERSION_HEADERS.alps) return 'alps'
  if (header === VERSION_HEADERS.blanc) return 'blanc'
  return { raw: header }
}

/** The error envelope a body is, checked as the runner checks it (its traceId equals `x-trace-id`). */
export function errorEnvelope(json: unknown, traceHeader: string | undefined, speaks: 'alps' | 'blanc') {
  const order = speaks === 'alps' ? (['alps', 'blanc'] as const) : (['blanc', 'alps'] as const)
  return order.find((version) => {
    const schema = specSchemas[version === 'alps' ? 'AlpsErrorEnvelope' : 'BlancErrorEnvelope'].schema
    if (!schema.safeParse(json).success) return false
    const traceId = (json as { traceId?: unknown }).traceId
    return traceHeader === undefined || traceId === traceHeader
  })
}

/** A JSON text parsed, or not JSON. */
export function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** A JSON text parsed keeping integers past 2^53 exact, or not JSON. */
export function tryJsonExact(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseJsonExact(text) }
  } catch {
    return { ok: false }
  }
}

/** Whether a JSON text holds a whole number beyond 2^53 (re-serializing it would change it). */
export function hasUnsafeIntegers(text: string): boolean {
  return /[:[,]\s*-?\d{16,}\s*[,}\]]/.test(text)
}
