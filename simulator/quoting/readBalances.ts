import {
  type Address,
  type Chain,
  createPublicClient,
  decodeAbiParameters,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  type PublicClient,
  type Transport,
} from 'viem'
import { addresses, type TokenInfo } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import { toLockId } from '../devnet/lockTag'
import { keepAliveTransport } from './keepAliveTransport'
import { isNative } from './swaps'

/** What an account holds of one token on one chain (read-only: decoded holdings are frozen and shared). */
export type TokenHolding = {
  readonly token: TokenInfo
  /** Wallet balance (raw units). */
  readonly wallet: bigint
  /** What Permit2 may take from the wallet (allowance to Permit2). */
  readonly permit2Allowance: bigint
  /** The Compact lock id of the allocator's tag over this token. */
  readonly lockId: bigint
  /** ERC-6909 balance of that lock (raw units). */
  readonly locked: bigint
}

/** What an account holds on one chain, and the chain's base fee, read in one Multicall3 call (frozen, shared). */
export type ChainHoldings = {
  readonly chainId: number
  readonly baseFee: bigint
  readonly tokens: readonly TokenHolding[]
}

/** A chain the reader can query, with an RPC counter around its transport. */
export type BalanceChain = {
  chainId: number
  tokens: readonly TokenInfo[]
  client: PublicClient<Transport, Chain>
  /** Encoded `aggregate3` calldata by account (bounded): the same account is quoted again and again. */
  calldata: Map<Address, Hex>
  /** Holdings decoded from an `aggregate3` answer, by the answer's bytes (bounded; frozen, shared). */
  decoded: Map<Hex, ChainHoldings>
  /** Reads asked for since the last one was sent: they go out together (see {@link readBalances}). */
  pending?: Map<Address, PendingRead> | undefined
}

type Call3 = { target: Address; allowFailure: boolean; callData: Hex }
type PendingRead = {
  promise: Promise<ChainHoldings>
  resolve: (holdings: ChainHoldings) => void
  reject: (error: unknown) => void
}

/** Counts JSON-RPC round trips (HTTP requests) made by the quoting clients. */
export type RpcCounter = { readonly count: number; reset(): void }

/** Round trips of one quote: {@link readBalances} adds one per chain read it waits on. */
export type RoundTripScope = { count: number }

/**
 * Public clients for quoting, one per chain, over {@link keepAliveTransport} with `batch` (the
 * `eth_call`s of one synchronous run share one HTTP request, counted; no retries), so the reads
 * that {@link readBalances} sends together are exactly one round trip per chain (the wire count
 * checks it: quoting.test.ts). No AsyncLocalStorage: on Node 20 an active one makes every await
 * of the process slower.
 */
export function createBalanceChains(
  chains: readonly { chainId: number; chain: Chain; rpcUrl: string; tokens: readonly TokenInfo[] }[],
): { chains: BalanceChain[]; rpc: RpcCounter } {
  let count = 0
  const rpc: RpcCounter = {
    get count() {
      return count
    },
    reset() {
      count = 0
    },
  }
  const onRoundTrip = () => {
    count++
  }
  return {
    rpc,
    chains: chains.map(({ chainId, chain, rpcUrl, tokens }) => ({
      chainId,
      tokens,
      client: createPublicClient({
        chain,
        transport: keepAliveTransport(rpcUrl, { onRoundTrip, batch: true }),
      }),
      calldata: new Map(),
      decoded: new Map(),
    })),
  }
}

/** Most entries a chain's calldata and decoded-answer caches keep (then they start again). */
const CACHE_SIZE = 1024

const remember = <K, V>(cache: Map<K, V>, key: K, value: V): V => {
  if (cache.size >= CACHE_SIZE) cache.clear()
  cache.set(key, value)
  return value
}

/**
 * The calls that read an account on a chain: the chain's base fee (`getBasefee`), then per token
 * its `balanceOf(account)`, `allowance(account, Permit2)` and the Compact lock balance
 * `balanceOf(account, lockId)`, every call allowed to fail. Native ETH (the zero address in the
 * token list) reads `getEthBalance(account)` and its Compact lock (lock id token = zero address).
 */
function accountCalls(chain: BalanceChain, account: Address): Call3[] {
  return [
    {
      target: addresses.multicall3,
      allowFailure: true,
      callData: encodeFunctionData({ abi: artifacts.Multicall3.abi, functionName: 'getBasefee' }),
    },
    ...chain.tokens.flatMap((token) => [
      // Native ETH (the zero address): the wallet's ether, and no Permit2 allowance (Permit2 cannot move it).
      isNative(token.address)
        ? {
            target: addresses.multicall3,
            allowFailure: true,
            callData: encodeFunctionData({
              abi: artifacts.Multicall3.abi,
              functionName: 'getEthBalance',
              args: [account],
            }),
          }
        : {
            target: token.address,
            allowFailure: true,
            callData: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [account] }),
          },
      // (For native ETH this slot is a placeholder that fails and is ignored: the allowance reads as 0.)
      {
        target: isNative(token.address) ? addresses.multicall3 : token.address,
        allowFailure: true,
        callData: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'allowance',
          args: [account, addresses.permit2],
        }),
      },
      {
        target: addresses.compact,
        allowFailure: true,
        callData: encodeFunctionData({
          abi: artifacts.TheCompact.abi,
          functionName: 'balanceOf',
          args: [account, lockIdOf(token.address)],
        }),
      },
    ]),
  ]
}

/** The `aggregate3` calldata reading `account` on `chain` (encoded once per account). */
function accountCalldata(chain: BalanceChain, account: Address): Hex {
  return (
    chain.calldata.get(account) ??
    remember(
      chain.calldata,
      account,
      encodeFunctionData({
        abi: artifacts.Multicall3.abi,
        functionName: 'aggregate3',
        args: [accountCalls(chain, account)],
      }),
    )
  )
}

const lockIdsByToken = new Map<Address, bigint>()
const lockIdOf = (token: Address): bigint => {
  let id = lockIdsByToken.get(token)
  if (id === undefined) {
    id = toLockId(DEVNET_LOCK_TAG, token)
    lockIdsByToken.set(token, id)
  }
  return id
}

const UINT256 = [{ type: 'uint256' }] as const

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
      .call({ to: addresses.multicall3, data: accountCalldata(chain, account) })
      .then(({ data }) => read.resolve(holdingsFrom(chain, data ?? '0x')), read.reject)
}

/**
 * The holdings an `aggregate3` answer says. The same bytes always mean the same holdings (they
 * name no account), so an answer seen before is not decoded again: its frozen holdings are shared.
 */
function holdingsFrom(chain: BalanceChain, answer: Hex): ChainHoldings {
  const known = chain.decoded.get(answer)
  if (known) return known
  const results = decodeFunctionResult({
    abi: artifacts.Multicall3.abi,
    functionName: 'aggregate3',
    data: answer,
  })
  return remember(chain.decoded, answer, holdingsOf(chain, results))
}

/** Holdings from an account's `aggregate3` results (base fee, then three reads per token), frozen. */
function holdingsOf(
  chain: BalanceChain,
  results: readonly { success: boolean; returnData: Hex }[],
): ChainHoldings {
  const value = (i: number): bigint => {
    const r = results[i]
    if (!r?.success || r.returnData === '0x') return 0n
    try {
      return decodeAbiParameters(UINT256, r.returnData)[0]
    } catch {
      return 0n
    }
  }
  return Object.freeze({
    chainId: chain.chainId,
    baseFee: value(0),
    tokens: Object.freeze(
      chain.tokens.map((token, i) =>
        Object.freeze({
          token,
          wallet: value(1 + 3 * i),
          permit2Allowance: isNative(token.address) ? 0n : value(2 + 3 * i),
          lockId: lockIdOf(token.address),
          locked: value(3 + 3 * i),
        }),
      ),
    ),
  })
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
 */
export async function readBalances(
  chains: readonly BalanceChain[],
  account: Address,
  scope?: RoundTripScope,
): Promise<ChainHoldings[]> {
  if (scope) scope.count += chains.length
  return Promise.all(chains.map((chain) => readChain(chain, account)))
}
