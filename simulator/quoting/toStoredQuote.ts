import type { PrivateKeyAccount } from 'viem/accounts'
import type { IntentOp } from '../../spec'
import { signOnce } from './buildIntentOp'
import type { QuotedIntent, StoredQuotedIntent } from './types'

/** Entries a {@link SharedValues} generation holds before it becomes the old one. */
export const SHARED_VALUES_PER_GENERATION = 4_096

/**
 * One instance per distinct JSON value: a value seen before (an address, a lock id, the prices,
 * gas prices and account blocks of the signed metadata, a mandate's qualifier) is replaced by the
 * instance already stored, so thousands of stored routes share them instead of each holding a copy.
 * Two generations bound it: a value not seen again within a generation is forgotten.
 */
export type SharedValues = {
  /** The stored instance equal (as JSON) to `value`, or `value` itself the first time. */
  same<T>(value: T): T
  /** Distinct values currently remembered (both generations). */
  readonly size: number
}

/**
 * Creates a {@link SharedValues} table (the quoting service keeps one for its quote store).
 *
 * @example
 * const shared = createSharedValues()
 * shared.same({ ETH: 3000 }) === shared.same({ ETH: 3000 }) // true
 */
export function createSharedValues(perGeneration = SHARED_VALUES_PER_GENERATION): SharedValues {
  let current = new Map<string, unknown>()
  let previous = new Map<string, unknown>()
  const lookup = (key: string, value: unknown) => {
    const known = current.get(key) ?? previous.get(key)
    if (known !== undefined) {
      if (!current.has(key)) current.set(key, known)
      return known
    }
    if (current.size >= perGeneration) {
      previous = current
      current = new Map()
    }
    current.set(key, value)
    return value
  }
  return {
    same<T>(value: T): T {
      // Short strings and numbers cost no more than the table's entry for them.
      if (typeof value === 'string') return value.length > 12 ? (lookup(`s${value}`, value) as T) : value
      if (value === null || typeof value !== 'object') return value
      let key: string
      try {
        key = `o${JSON.stringify(value)}`
      } catch {
        return value // a bigint inside: not shared
      }
      return lookup(key, value) as T
    },
    get size() {
      return current.size + previous.size
    },
  }
}

/** Every value of a plain object through `same`, keys in the same order. */
function eachSame<T extends object>(record: T, shared: SharedValues): T {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) out[key] = shared.same(value)
  return out as T
}

/** An `[id, amount]` list with its ids (long decimal lock ids) shared. */
const samePairs = (pairs: readonly (readonly [string, string])[] | undefined, shared: SharedValues) =>
  pairs?.map(([id, amount]) => [shared.same(id), amount] as [string, string])

/**
 * The IntentOp as the store keeps it: the same JSON, its repeated parts shared with the routes
 * stored before it (the signed metadata's blocks, each mandate's parts, addresses and lock ids).
 * Shared parts must not be changed: nothing changes a stored IntentOp (signing copies it).
 */
export function compactIntentOp(intentOp: IntentOp, shared: SharedValues): IntentOp {
  return {
    ...intentOp,
    sponsor: shared.same(intentOp.sponsor),
    elements: intentOp.elements.map((element) => ({
      ...eachSame(element, shared),
      idsAndAmounts: samePairs(element.idsAndAmounts, shared),
      spendTokens: samePairs(element.spendTokens, shared),
      mandate: {
        ...eachSame(element.mandate, shared),
        tokenOut: samePairs(element.mandate.tokenOut, shared),
      },
    })) as IntentOp['elements'],
    signedMetadata: eachSame(intentOp.signedMetadata, shared),
  }
}

/**
 * What the blanc quote store keeps of a quoted route: only what a later submit (and the explorer's
 * list of quotes) needs, its IntentOp compacted with {@link compactIntentOp}, and a signer over
 * that compact IntentOp (the route's own signer would keep the full one alive). The typed data
 * to sign, the request's delegations and the plan's internals went out in the route or are not
 * needed again.
 */
export function toStoredQuote(
  quoted: QuotedIntent,
  server: PrivateKeyAccount,
  shared: SharedValues,
): StoredQuotedIntent {
  const intentOp = compactIntentOp(quoted.intentOp, shared)
  const { account } = quoted
  return {
    intentOp,
    signedIntentOp: signOnce(intentOp, server),
    fundingMethod: quoted.fundingMethod,
    account: {
      address: shared.same(account.address),
      setupOps: account.setupOps.length === 0 ? [] : account.setupOps,
    },
    destinationChainId: quoted.destinationChainId,
    originChainIds: quoted.originChainIds,
    outputs: quoted.outputs,
    sources: quoted.sources,
    totalCostUsd: quoted.totalCostUsd,
    quotedAt: quoted.quotedAt,
  }
}
