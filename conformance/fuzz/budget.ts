/**
 * The run's request budget (`--budget REQUESTS`): a bound on every request the fuzzer sends to
 * the target, whatever it is for. A request is taken from the budget before it is sent; once
 * the budget is spent nothing more is sent: the stateless phase stops looking, a finding's
 * shrinking stops at the smallest failing input found so far, a sequence stops where it is
 * (inconclusive, not a finding). A run without a budget (`--duration`) has an unbounded one.
 */

/** What a request was sent for, as report.json counts them. */
export type RequestKind = 'probes' | 'looking' | 'controls' | 'shrinking' | 'sequences'

/** The requests sent, by what for, and their sum. */
export type RequestCounts = Record<RequestKind, number> & { total: number }

/** The budget of a run and what it has spent. */
export type RequestBudget = {
  /** The most requests the run may send (Infinity: no bound). */
  readonly limit: number
  /** Requests it may still send. */
  left(): number
  /**
   * Takes one request of `kind` from the budget: false (and nothing taken) when it is spent.
   * Synchronous, so requests sent at once never overdraw it.
   */
  take(kind: RequestKind): boolean
  /** The requests taken so far, by kind. */
  counts(): RequestCounts
}

/**
 * A budget of `limit` requests (Infinity: unbounded, still counted).
 *
 * @example
 * const budget = createRequestBudget(2000)
 * if (budget.take('looking')) await send(request)
 */
export function createRequestBudget(limit: number): RequestBudget {
  const spent: Record<RequestKind, number> = {
    probes: 0,
    looking: 0,
    controls: 0,
    shrinking: 0,
    sequences: 0,
  }
  let total = 0
  return {
    limit,
    left: () => Math.max(0, limit - total),
    take(kind) {
      if (total >= limit) return false
      total++
      spent[kind]++
      return true
    },
    counts: () => ({ ...spent, total }),
  }
}
