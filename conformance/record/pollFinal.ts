import type { Matcher } from '../scenario/httpStepSchema'

/** Intent statuses in the order a settlement reaches them (equal rank: either may come first). */
const INTENT_PROGRESS: Record<string, number> = {
  PENDING: 0,
  PRECONFIRMED: 1,
  CLAIMED: 2,
  FILLED: 2,
  COMPLETED: 3,
}
/** Statuses no later poll changes (intents, deposits, webhook events). */
const TERMINAL = [
  'COMPLETED',
  'FAILED',
  'EXPIRED',
  'completed',
  'failed',
  'rejected',
  'refunded',
  'ignored',
  'delivered',
  'skipped',
]
/** Deposit statuses before a terminal one. */
const DEPOSIT_PROGRESS: Record<string, number> = { processing: 0, delayed: 1, expecting_refund: 1 }
/** The elements of a listed answer whose statuses a poll's end looks at (the first ones). */
const MAX_LISTED = 20

/**
 * The final state of a polled status (`poll.final`), from the answer the client saw last: any
 * terminal status, and any status past the recorded one (a settlement does not go back), so a
 * replay whose poll can no longer reach the recorded answer ends at once instead of waiting out
 * its limit. The status is the answer's own (`/status`: an intent) or, for a list, that of each
 * of its first elements (`/deposits/0/status`, …: deposits or webhook events polled until they
 * settle; the poll ends when every one of them is final). Undefined for an answer with neither.
 *
 * @example
 * finalStatuses({ status: 'PENDING' }) // { '/status': { oneOf: ['PRECONFIRMED', 'CLAIMED', 'FILLED', 'COMPLETED', …] } }
 * finalStatuses({ deposits: [{ status: 'completed' }] }) // { '/deposits/0/status': { oneOf: ['completed', 'failed', …] } }
 */
export function finalStatuses(answer: unknown): Record<string, Matcher> | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return undefined
  const top = (answer as { status?: unknown }).status
  if (typeof top === 'string') return { '/status': { oneOf: finalOf(top) } }
  const found: Record<string, Matcher> = {}
  for (const [key, list] of Object.entries(answer)) {
    if (!Array.isArray(list)) continue
    list.slice(0, MAX_LISTED).forEach((item, i) => {
      const status = (item as { status?: unknown } | null)?.status
      if (typeof status === 'string') found[`/${escapePointer(key)}/${i}/status`] = { oneOf: finalOf(status) }
    })
  }
  return Object.keys(found).length > 0 ? found : undefined
}

/** The statuses that end a poll whose recorded answer had `status`. */
function finalOf(status: string): string[] {
  const progress = status in DEPOSIT_PROGRESS ? DEPOSIT_PROGRESS : INTENT_PROGRESS
  const rank = progress[status]
  const later = rank === undefined ? [] : Object.keys(progress).filter((s) => (progress[s] ?? -1) > rank)
  const final = [...new Set([...later, ...TERMINAL.filter((s) => s !== status || rank === undefined)])]
  // A terminal status the client saw is itself final (its poll ends on it either way).
  if (TERMINAL.includes(status)) final.push(status)
  return [...new Set(final)]
}

/** A key as a JSON Pointer segment (RFC 6901). */
const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * What a replay expects of an intent's `status` in an answer that is not polled (a submit
 * answered with an intent that already exists, as `intents.accept-duplicate` answers): how far
 * its settlement got when the answer was made is a matter of timing, so any status on the way to
 * completion (PENDING, PRECONFIRMED, CLAIMED, FILLED, COMPLETED) replays one recorded on that
 * way; a failure or an expiry is not on it and is expected as recorded. Undefined for any other
 * status.
 *
 * @example
 * settlementInProgress('PRECONFIRMED') // { oneOf: ['PENDING', 'PRECONFIRMED', 'CLAIMED', 'FILLED', 'COMPLETED'] }
 * settlementInProgress('FAILED') // undefined
 */
export function settlementInProgress(status: unknown): Matcher | undefined {
  if (typeof status !== 'string' || !(status in INTENT_PROGRESS)) return undefined
  return { oneOf: Object.keys(INTENT_PROGRESS) }
}

/**
 * What a replay expects of an intent's (or a claim's) `status` in a polled answer the client
 * stopped at before completion (the public SDK stops polling once an intent is PRECONFIRMED): the
 * recorded status or any later one on the way to completion, since a replay's first poll may
 * come after the settlement got further than the recorded client saw (a faster relayer, another
 * machine); a failure or an expiry is not on that way. Undefined for COMPLETED, a failure, an
 * expiry and any other status: those are expected as recorded.
 *
 * @example
 * settlementAtOrPast('PRECONFIRMED') // { oneOf: ['PRECONFIRMED', 'CLAIMED', 'FILLED', 'COMPLETED'] }
 * settlementAtOrPast('COMPLETED') // undefined
 */
export function settlementAtOrPast(status: unknown): Matcher | undefined {
  if (typeof status !== 'string' || status === 'COMPLETED') return undefined
  const rank = INTENT_PROGRESS[status]
  if (rank === undefined) return undefined
  return { oneOf: Object.keys(INTENT_PROGRESS).filter((s) => (INTENT_PROGRESS[s] ?? -1) >= rank) }
}
