import type { Hex, Transport } from 'viem'
import { keccak256Hex } from './keccak'

/**
 * How long a transaction sent by `eth_sendRawTransactionSync` may stay unanswered before the node
 * is asked whether it has it (`eth_getTransactionByHash`, then every {@link KNOWN_POLL_MS}): an
 * automining node (Anvil) answers in milliseconds; one with a block time answers at the next
 * block, and the sender (who holds its account's lock until the node has its transaction) should
 * not wait that long.
 */
const SLOW_SYNC_MS = 150
const KNOWN_POLL_MS = 50
/** Receipts kept for viem's first look-up; more (never looked up) push out the oldest. */
const MAX_KEPT_RECEIPTS = 256

/**
 * A chain transport on which a signed transaction costs one round trip with its receipt instead of
 * two or more (`eth_sendRawTransaction`, then `eth_getTransactionReceipt` until mined): viem's
 * `eth_sendRawTransaction` is sent as EIP-7966's `eth_sendRawTransactionSync`, which an automining
 * node answers with the receipt once it has mined the transaction; the transaction's hash is
 * answered as viem expects, and the receipt is kept for viem's first `eth_getTransactionReceipt`
 * of that hash (waitForTransactionReceipt's first look), which it answers without a round trip.
 * Everything else passes through.
 *
 * Measured first: a JSON-RPC batch [eth_sendRawTransaction, eth_getTransactionReceipt] to an
 * automining Anvil 1.7 had the receipt in 6 of 20 (the batch's calls run side by side, the
 * mining after the send's answer), so the sync call, answered with the receipt every time.
 *
 * Fallbacks, for any node a vendor gives (a hand-written path, kept because each case is one a
 * real node has): a node that does not know the method (or fails it otherwise) is asked whether it
 * has the transaction; if not, it gets a plain `eth_sendRawTransaction` of the same bytes (whose
 * answer, or refusal, is then the send's, as before this transport), and is not asked the sync
 * method again once that worked. A node that does not automine (a block time, `--no-mining`)
 * leaves the sync call unanswered: after {@link SLOW_SYNC_MS} it is asked whether it has the
 * transaction, and once it has, the hash is answered (viem then polls the receipt as it always
 * did), or the sync call's answer, whichever comes first.
 */
export function syncSendTransport(inner: Transport): Transport {
  let syncUnsupported = false
  const kept = new Map<string, unknown>()
  const keep = (hash: string, receipt: unknown) => {
    if (!receipt) return
    kept.set(hash, receipt)
    if (kept.size > MAX_KEPT_RECEIPTS) kept.delete(kept.keys().next().value as string)
  }
  return (options) => {
    const base = inner(options)
    type Request = typeof base.request
    const request = ((args, requestOptions) => {
      const { method, params } = args as { method: string; params?: unknown }
      if (method === 'eth_getTransactionReceipt') {
        const hash = String((params as unknown[] | undefined)?.[0] ?? '').toLowerCase()
        if (kept.has(hash)) {
          const receipt = kept.get(hash)
          kept.delete(hash)
          return Promise.resolve(receipt)
        }
      }
      if (method !== 'eth_sendRawTransaction' || syncUnsupported) return base.request(args, requestOptions)
      const raw = (params as [Hex])[0]
      return sendSync(raw)
    }) as Request

    const known = (hash: Hex) =>
      base
        .request({ method: 'eth_getTransactionByHash', params: [hash] } as never)
        .then((transaction) => Boolean(transaction))
        .catch(() => false)
    const plain = async (raw: Hex): Promise<unknown> => {
      try {
        return await base.request({ method: 'eth_sendRawTransaction', params: [raw] } as never, {
          retryCount: 0,
        })
      } catch (error) {
        // The sync call took it after all (a node behind a balancer that answered late).
        if (/already known/i.test(String((error as Error).message))) return keccak256Hex(raw)
        throw error
      }
    }

    async function sendSync(raw: Hex): Promise<unknown> {
      const hash = keccak256Hex(raw)
      type Outcome = { receipt: unknown } | { error: unknown }
      const sync: Promise<Outcome> = base
        .request({ method: 'eth_sendRawTransactionSync', params: [raw] } as never, { retryCount: 0 })
        .then(
          (receipt) => ({ receipt }),
          (error: unknown) => ({ error }),
        )
      let outcome = await Promise.race([sync, sleep(SLOW_SYNC_MS)])
      // Not mined yet: answered once the node has it (or the sync call settles first).
      while (!outcome) {
        if (await known(hash)) {
          void sync.then((late) => 'receipt' in late && keep(hash, late.receipt))
          return hash
        }
        outcome = await Promise.race([sync, sleep(KNOWN_POLL_MS)])
      }
      if ('receipt' in outcome) {
        keep(hash, outcome.receipt)
        return hash
      }
      // Refused, timed out, or not served: the node's own word on whether it took it.
      if (await known(hash)) return hash
      const result = await plain(raw)
      syncUnsupported = true
      return result
    }

    return { ...base, request }
  }
}

const sleep = (ms: number) => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))
