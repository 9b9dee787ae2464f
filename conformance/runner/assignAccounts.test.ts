import { describe, expect, test } from 'vitest'
import { assignAccounts } from './assignAccounts'

describe('assignAccounts', () => {
  const claim = (actsAs: number[], reads: number[], uses = [...actsAs, ...reads]) => ({ actsAs, reads, uses })

  test('the named accounts when free; else other free ones, distinct, as a permutation', () => {
    expect(assignAccounts(claim([0], []), 3, [])).toEqual({
      accounts: undefined,
      hold: { actsAs: [0], reads: [], uses: [0] },
    })
    // Account 0 is acted as: an actor of 0 takes 1, a reader of 0 takes 1 too (not beside the actor).
    const actor = { actsAs: [0], reads: [], uses: [0] }
    expect(assignAccounts(claim([0], []), 3, [actor])).toEqual({
      accounts: [1, 0, 2],
      hold: { actsAs: [1], reads: [], uses: [1] },
    })
    expect(assignAccounts(claim([], [0]), 3, [actor])?.hold.reads).toEqual([1])
    // Acting as 0 and 1 while 0 and 2 are held: 1 keeps 1, 0 gets 3.
    const held = [actor, { actsAs: [], reads: [2], uses: [2] }]
    expect(assignAccounts(claim([0, 1], []), 4, held)?.accounts).toEqual([3, 1, 2, 0])
    // Readers share an account; an actor waits when every account is held.
    expect(
      assignAccounts(claim([], [0]), 1, [{ actsAs: [], reads: [0], uses: [0] }])?.accounts,
    ).toBeUndefined()
    expect(assignAccounts(claim([0], []), 2, [actor, { actsAs: [1], reads: [], uses: [1] }])).toBeUndefined()
    // One only sent from (a transfer) takes the least used account.
    expect(
      assignAccounts(claim([], [], [0]), 3, [actor, { actsAs: [], reads: [], uses: [1] }])?.hold,
    ).toEqual({
      actsAs: [],
      reads: [],
      uses: [2],
    })
    // An index the target does not fund stays itself (its step reports the missing account).
    expect(assignAccounts(claim([5], []), 2, [])?.hold.actsAs).toEqual([5])
  })
})
