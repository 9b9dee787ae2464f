/**
 * Which funded accounts a scenario takes beside the running ones (schedule.ts): the target
 * funds each alike, so a scenario that names account 0 while another acts as it takes another.
 */

/** Funded accounts (by the target's index) a running scenario holds. */
export type AccountHold = { actsAs: number[]; reads: number[]; uses: number[] }

/** What {@link assignAccounts} gives a scenario that may start. */
export type AccountAssignment = {
  /** The funded account each index of the scenario stands for, or undefined when each is itself. */
  accounts: number[] | undefined
  hold: AccountHold
}

/**
 * The funded accounts a scenario takes beside the running ones (`held`), or undefined when it
 * has to wait: each account it acts as one that no running scenario acts as or reads, each it
 * reads one no running scenario acts as, each it only sends from (a transfer) the least used;
 * distinct for distinct indexes, the one it names when that one is free. An index beyond the
 * `funded` accounts stays itself (the step that uses it reports the missing account).
 *
 * @example
 * assignAccounts(scenarioClaims(scenario), 10, [{ actsAs: [0], reads: [], uses: [0] }]).accounts // [1, 0, 2, …]
 */
export function assignAccounts(
  claim: { actsAs: readonly number[]; reads: readonly number[]; uses: readonly number[] },
  funded: number,
  held: readonly AccountHold[],
): AccountAssignment | undefined {
  const acted = new Set(held.flatMap((h) => h.actsAs))
  const read = new Set(held.flatMap((h) => h.reads))
  const load = (account: number) => held.filter((h) => h.uses.includes(account)).length
  const chosen = new Map<number, number>()
  const taken = new Set<number>()
  const named = new Set(claim.uses)
  const take = (index: number, free: (account: number) => boolean, rank?: (account: number) => number) => {
    if (index >= funded) {
      if (!free(index)) return false
      chosen.set(index, index)
      return true
    }
    // The named one first; those the scenario names at other indexes last (they may be free for them).
    const others = Array.from({ length: funded }, (_, a) => a).filter((a) => a !== index)
    const candidates = [index, ...others.filter((a) => !named.has(a)), ...others.filter((a) => named.has(a))]
    const open = candidates.filter((a) => !taken.has(a) && a < funded && free(a))
    if (rank) open.sort((a, b) => rank(a) - rank(b)) // stable: the named one first among equals
    const account = open[0]
    if (account === undefined) return false
    chosen.set(index, account)
    taken.add(account)
    return true
  }
  for (const index of claim.actsAs) if (!take(index, (a) => !acted.has(a) && !read.has(a))) return undefined
  for (const index of claim.reads) if (!take(index, (a) => !acted.has(a))) return undefined
  for (const index of claim.uses)
    if (!chosen.has(index)) take(index, () => true, load) || chosen.set(index, index)
  const map = (list: readonly number[]) => list.map((index) => chosen.get(index) ?? index)
  const hold = { actsAs: map(claim.actsAs), reads: map(claim.reads), uses: map(claim.uses) }
  if ([...chosen].every(([index, account]) => index === account)) return { accounts: undefined, hold }
  // A permutation of the funded accounts: each chosen one at its index, the others fill the rest.
  const accounts = Array.from({ length: funded }, (_, a) => a)
  for (const [index, account] of chosen) {
    if (index >= funded) continue
    const at = accounts.indexOf(account)
    accounts[at] = accounts[index]!
    accounts[index] = account
  }
  return { accounts, hold }
}
