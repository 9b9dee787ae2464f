import type { Matcher } from '../scenario/httpStepSchema'

/** Intent statuses in the order a settlement reaches them (equal rank: either may come first). */
const INTENT_PROGRESS: Record<string, number> = {
  PENDING: 0,
  PRECONFIRMED: 1,
  CLAIMED: 2,
  FILLED: 2,
  COMPLETED: 3,
}
/** Statuses no later poll changes. */
const TERMINAL = ['COMPLETED', 'FAILED', 'EXPIRED', 'completed', 'failed', 'rejected', 'refunded', 'ignored']
/** Deposit statuses before a terminal one. */
const DEPOSIT_PROGRESS: Record<string, number> = { processing: 0, delayed: 1, expecting_refund: 1 }

/**
 * The final state of a polled status (`poll.final`), from the answer the client saw last: any
 * terminal status, and any status past the recorded one (a settlement does not go back), so a
 * replay whose poll can no longer reach the recorded answer ends at once instead of waiting out
 * its limit. Undefined for an answer with no top-level `status`.
 *
 * @example
 * finalStatuses({ status: 'PENDING' }) // { '/status': { oneOf: ['PRECONFIRMED', 'CLAIMED', 'FILLED', 'COMPLETED', …] } }
 */
export function finalStatuses(answer: unknown): Record<string, Matcher> | undefined {
  const status = (answer as { status?: unknown })?.status
  if (typeof status !== 'string') return undefined
  const progress = status in DEPOSIT_PROGRESS ? DEPOSIT_PROGRESS : INTENT_PROGRESS
  const rank = progress[status]
  const later = rank === undefined ? [] : Object.keys(progress).filter((s) => (progress[s] ?? -1) > rank)
  const final = [...new Set([...later, ...TERMINAL.filter((s) => s !== status || rank === undefined)])]
  // A terminal status the client saw is itself final (its poll ends on it either way).
  if (TERMINAL.includes(status)) final.push(status)
  return { '/status': { oneOf: [...new Set(final)] } }
}
