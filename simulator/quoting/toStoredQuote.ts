import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type { PrivateKeyAccount } from 'viem/accounts'
import { signOnce } from './buildIntentOp'
import type { QuoteCodec } from './quoteStore'
import type { QuotedIntent, StoredQuotedIntent } from './types'

/**
 * What the blanc quote store keeps of a quoted route: only what a later submit (and the explorer's
 * list of quotes) needs. The typed data to sign, the request's delegations and the plan's
 * internals went out in the route or are not needed again; the signer is made again on decode.
 *
 * @example
 * quotes.put(toStoredQuote(route.quoted, server))
 */
export function toStoredQuote(quoted: QuotedIntent, server: PrivateKeyAccount): StoredQuotedIntent {
  const { account } = quoted
  return {
    intentOp: quoted.intentOp,
    signedIntentOp: signOnce(quoted.intentOp, server),
    fundingMethod: quoted.fundingMethod,
    account: { address: account.address, setupOps: account.setupOps },
    destinationChainId: quoted.destinationChainId,
    originChainIds: quoted.originChainIds,
    outputs: quoted.outputs,
    sources: quoted.sources,
    totalCostUsd: quoted.totalCostUsd,
    quotedAt: quoted.quotedAt,
  }
}

/** A bigint in the stored JSON: its decimal digits and an `n` (no other stored string looks like it). */
const BIGINT = /^-?\d+n$/

/** zlib level: level 2 is within ~5% of level 9 on a quote's routes at a fraction of its time (measured). */
const LEVEL = 2
/** Largest preset dictionary deflate uses (its window). */
const MAX_DICTIONARY = 32 * 1024

/**
 * The blanc quote store's codec: the routes of one quote as one JSON array, deflated with a
 * preset dictionary (the first quote it encodes), kept as a one-byte (latin1) string. A quote's
 * 8 routes, ~30 KB of JSON, keep in ~1.5 KB, since routes share most of their text (addresses,
 * lock ids, the signed metadata's blocks) with each other and with the dictionary; encoding costs
 * well under a millisecond, decoding (at submit) a fraction of that. Bigints are kept as
 * `"123n"`. Decoding gives back the same JSON and a signer over each IntentOp.
 *
 * @example
 * const quotes = createQuoteStore({ clock, ttlSeconds: 300, codec: createStoredQuoteCodec(server) })
 */
export function createStoredQuoteCodec(server: PrivateKeyAccount): QuoteCodec<StoredQuotedIntent> {
  let dictionary: Buffer | undefined
  return {
    encode(quotes) {
      const records = quotes.map(({ signedIntentOp: _, ...record }) => record)
      const json = JSON.stringify(records, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value))
      dictionary ??= Buffer.from(json.slice(-MAX_DICTIONARY))
      return deflateRawSync(json, { dictionary, level: LEVEL }).toString('latin1')
    },
    decode(data) {
      const json = inflateRawSync(Buffer.from(data, 'latin1'), { dictionary }).toString()
      const records = JSON.parse(json, (_key, value) =>
        typeof value === 'string' && BIGINT.test(value) ? BigInt(value.slice(0, -1)) : value,
      ) as Omit<StoredQuotedIntent, 'signedIntentOp'>[]
      return records.map((record) => ({ ...record, signedIntentOp: signOnce(record.intentOp, server) }))
    },
  }
}
