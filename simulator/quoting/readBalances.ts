import type { Address } from 'viem'
import { addresses } from '../../contracts/addresses'
import type { BalanceChain, PendingRead } from './createBalanceReader'
import { decodeHoldings } from './decodeHoldings'
import { encodeAccountRead } from './encodeAccountRead'
import type { ChainHoldings } from './types'

/** Round trips of one quote: {@link readBalances} adds one per chain read it waits on. */
export type RoundTripScope = { count: number }

/**
 * Sends the reads pending on `chain`: one `aggregate3` `eth_call` per account, all in the same
 * synchronous run, so the batching transport carries them in one HTTP request (a JSON-RPC batch).
 */
function sendPending(chain: BalanceChain): void {
  const pending = chain.pending
  chain.pending = undefined
  if (!pending) return
  for (const [account, read] of pending)
    chain.client
      .call({ to: addresses.multicall3, data: encodeAccountRead(chain, account) })
      .then(({ data }) => read.resolve(decodeHoldings(chain, data ?? '0x')), read.reject)
}

/** Asks for `account`'s holdings on `chain` in the next read sent to it. */
function readChain(chain: BalanceChain, account: Address): Promise<ChainHoldings> {
  let pending = chain.pending
  if (!pending) {
    pending = new Map()
    chain.pending = pending
    setImmediate(() => sendPending(chain))
  }
  let read = pending.get(account)
  if (!read) {
    let resolve!: PendingRead['resolve']
    let reject!: PendingRead['reject']
    const promise = new Promise<ChainHoldings>((res, rej) => {
      resolve = res
      reject = rej
    })
    read = { promise, resolve, reject }
    pending.set(account, read)
  }
  return read.promise
}

/**
 * Reads, on every chain in parallel and in ONE Multicall3 `aggregate3` `eth_call` per chain: each
 * token's wallet balance, its allowance to Permit2, the account's Compact lock balance (ERC-6909
 * `balanceOf(account, lockId)` for the allocator's lock tag), and the chain's base fee. A call
 * that fails (or returns no data) reads as 0. `scope.count` grows by one per chain read.
 *
 * Reads asked for while the event loop handles one batch of I/O are coalesced: they leave together,
 * on the next turn of the loop (`setImmediate`), as one HTTP request per chain carrying a JSON-RPC
 * batch of one `eth_call` per account asked for (the same account once; its calldata encoded once
 * and kept). An answer whose bytes were decoded before is not decoded again (the holdings are
 * frozen and shared). A read is never shared with a quote that asked after it was
 * sent, so every quote sees the chain as it was when the quote arrived or later, never earlier:
 * a transaction mined before a quote request is always in its balances. Under load, concurrent
 * quotes thus cost fewer round trips on the wire than one per chain each.
 *
 * @example
 * const balances = createBalanceReader({ clients: createBalanceClients({ chains: devnet.chains }) })
 * const holdings = await readBalances(balances.chains, account)
 */
export async function readBalances(
  chains: readonly BalanceChain[],
  account: Address,
  scope?: RoundTripScope,
): Promise<ChainHoldings[]> {
  if (scope) scope.count += chains.length
  return Promise.all(chains.map((chain) => readChain(chain, account)))
}
