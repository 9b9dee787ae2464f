import type { Hash } from 'viem'
import type { DevnetChain } from '../devnet/chain'
import type { IntentRecord, IntentStore } from '../intents/intentStore'
import type { SignedIntent } from '../intents/types'
import type { QuoteStore, StoredQuote } from '../quoting/quoteStore'
import type { StoredQuotedIntent } from '../quoting/types'
import type { Clock } from '../util/clock'
import { contractAt, decodeCall } from './decodeCall'
import { describeIntent } from './describeIntent'
import { compareNewestFirst, type PageKey, pageByKey } from './pageByKey'
import type { ExplorerQuote } from './schemas'
import { summarizeIntent } from './summarizeIntent'
import { tokenAmount } from './tokenAmount'
import type { ExplorerService } from './types'

/** Parameters of {@link createExplorer}. */
export type CreateExplorerParameters = {
  intents: Pick<IntentStore<SignedIntent>, 'all' | 'get' | 'getByIntentId'>
  quotes: Pick<QuoteStore<StoredQuotedIntent>, 'list' | 'ttlSeconds'>
  chains: readonly Pick<DevnetChain, 'chainId' | 'name' | 'publicClient'>[]
  clock: Clock
  /** Longest wait for one chain's answer before it is shown as down (default 2 s). */
  chainTimeoutMs?: number | undefined
}

/** Gas used of mined transactions kept (receipts never change for a given hash once mined). */
const GAS_CACHE_SIZE = 10_000

const intentKey = (record: IntentRecord<SignedIntent>): PageKey => ({ at: record.createdAt, id: record.id })
// By expiry (one lifetime for every quote: the order they were made), so a page decodes only its own quotes.
const quoteKey = (stored: StoredQuote<StoredQuotedIntent>): PageKey => ({
  at: stored.expiresAt,
  id: stored.intentId,
})

/**
 * Creates the explorer's read model over the intent store, the quote store and the chains. The
 * newest-first order of intents is kept between calls and a new intent is put in its place
 * by binary search, so a page of 10,000 intents costs a binary search, not a sort.
 *
 * @example
 * const explorer = createExplorer({ intents: intentStore, quotes, chains: devnet.chains, clock: devnet })
 * const { intents, nextCursor } = await explorer.listIntents({ limit: 50 })
 */
export function createExplorer(parameters: CreateExplorerParameters): ExplorerService {
  const { intents, quotes, clock } = parameters
  const chainTimeoutMs = parameters.chainTimeoutMs ?? 2_000
  const chains = new Map(parameters.chains.map((chain) => [chain.chainId, chain]))
  let order: { ids: string[]; keys: PageKey[] } = { ids: [], keys: [] }
  const known = new Set<string>()
  const gasUsed = new Map<string, string>()

  function sortedIntents(): { ids: string[]; keys: PageKey[] } {
    const all = intents.all()
    if (all.length === order.ids.length) return order
    const added = all.filter((record) => !known.has(record.id))
    for (const record of added) known.add(record.id)
    if (added.length > all.length / 4) {
      // Many new (a load from disk, a bench): one sort.
      const keyed = all.map((record) => ({ id: record.id, key: intentKey(record) }))
      keyed.sort((a, b) => compareNewestFirst(a.key, b.key))
      order = { ids: keyed.map((k) => k.id), keys: keyed.map((k) => k.key) }
      return order
    }
    // A few new, almost always the newest: each goes where a binary search puts it.
    for (const record of added) {
      const key = intentKey(record)
      let low = 0
      let high = order.keys.length
      while (low < high) {
        const mid = (low + high) >>> 1
        if (compareNewestFirst(order.keys[mid]!, key) <= 0) low = mid + 1
        else high = mid
      }
      order.ids.splice(low, 0, record.id)
      order.keys.splice(low, 0, key)
    }
    return order
  }

  async function gasUsedOf(chainId: number, hash: Hash): Promise<string | null> {
    const cacheKey = `${chainId}:${hash}`
    const cached = gasUsed.get(cacheKey)
    if (cached) return cached
    const chain = chains.get(chainId)
    if (!chain) return null
    const receipt = await withTimeout(
      chain.publicClient.getTransactionReceipt({ hash }),
      chainTimeoutMs,
    ).catch(() => undefined)
    if (!receipt) return null
    const gas = receipt.gasUsed.toString()
    if (gasUsed.size >= GAS_CACHE_SIZE) gasUsed.delete(gasUsed.keys().next().value as string)
    gasUsed.set(cacheKey, gas)
    return gas
  }

  const toQuote = (stored: StoredQuote<StoredQuotedIntent>, now: number): ExplorerQuote => ({
    intentId: stored.intentId,
    account: stored.quote.account.address,
    destinationChainId: stored.quote.destinationChainId,
    originChainIds: stored.quote.originChainIds,
    fundingMethod: stored.quote.fundingMethod,
    outputs: stored.quote.outputs.map((o) => tokenAmount(stored.quote.destinationChainId, o.token, o.amount)),
    totalCostUsd: stored.quote.totalCostUsd,
    quotedAt: stored.quote.quotedAt,
    expiresAt: stored.expiresAt,
    expired: now >= stored.expiresAt,
  })

  return {
    async listIntents(query) {
      if (query.search !== undefined) {
        const found = intents.getByIntentId(query.search) ?? intents.get(query.search)
        return { intents: found ? [summarizeIntent(found)] : [], total: found ? 1 : 0, nextCursor: null }
      }
      const { ids, keys } = sortedIntents()
      const page = pageByKey(
        ids.map((id, index) => ({ id, key: keys[index]! })),
        query,
        (item) => item.key,
      )
      const found = page.items.flatMap(({ id }) => {
        const record = intents.get(id)
        return record ? [summarizeIntent(record)] : []
      })
      return { intents: found, total: ids.length, nextCursor: page.nextCursor }
    },

    async getIntent(id) {
      const record = intents.get(id) ?? intents.getByIntentId(id)
      return record ? describeIntent(record, gasUsedOf) : undefined
    },

    async listQuotes(query) {
      const now = clock.now()
      const all = quotes.list().reverse()
      all.sort((a, b) => compareNewestFirst(quoteKey(a), quoteKey(b)))
      const page = pageByKey(all, query, quoteKey)
      return {
        quotes: page.items.map((stored) => toQuote(stored, now)),
        total: all.length,
        ttlSeconds: quotes.ttlSeconds,
        now,
        nextCursor: page.nextCursor,
      }
    },

    async chains() {
      const rows = await Promise.all(
        [...chains.values()].map(async (chain) => {
          const block = await withTimeout(
            chain.publicClient.getBlock({ blockTag: 'latest' }),
            chainTimeoutMs,
          ).catch(() => undefined)
          return {
            chainId: chain.chainId,
            name: chain.name,
            up: block !== undefined,
            blockNumber: block ? block.number.toString() : null,
            blockTimestamp: block ? Number(block.timestamp) : null,
          }
        }),
      )
      return { now: clock.now(), chains: rows }
    },

    async getTransaction(chainId, hash) {
      const chain = chains.get(chainId)
      if (!chain) return undefined
      const tx = await withTimeout(chain.publicClient.getTransaction({ hash }), chainTimeoutMs).catch(
        () => undefined,
      )
      if (!tx) return undefined
      const receipt = await withTimeout(
        chain.publicClient.getTransactionReceipt({ hash }),
        chainTimeoutMs,
      ).catch(() => undefined)
      const decoded = tx.to ? decodeCall(chainId, tx.to, tx.input) : undefined
      return {
        chainId,
        hash,
        from: tx.from,
        to: tx.to ?? null,
        value: tx.value.toString(),
        input: tx.input,
        blockNumber: tx.blockNumber === null ? null : tx.blockNumber.toString(),
        status: receipt ? receipt.status : 'pending',
        gasUsed: receipt ? receipt.gasUsed.toString() : null,
        contract: decoded?.contract ?? (tx.to ? (contractAt(chainId, tx.to)?.name ?? null) : null),
        decoded: decoded ?? null,
      }
    },
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
