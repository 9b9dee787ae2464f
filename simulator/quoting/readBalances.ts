import { AsyncLocalStorage } from 'node:async_hooks'
import {
  type Address,
  type Chain,
  createPublicClient,
  erc20Abi,
  http,
  type PublicClient,
  type Transport,
} from 'viem'
import { addresses, type TokenInfo } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import { toLockId } from '../devnet/lockTag'

/** What an account holds of one token on one chain. */
export type TokenHolding = {
  token: TokenInfo
  /** Wallet balance (raw units). */
  wallet: bigint
  /** What Permit2 may take from the wallet (allowance to Permit2). */
  permit2Allowance: bigint
  /** The Compact lock id of the allocator's tag over this token. */
  lockId: bigint
  /** ERC-6909 balance of that lock (raw units). */
  locked: bigint
}

/** What an account holds on one chain, and the chain's base fee, read in one Multicall3 call. */
export type ChainHoldings = { chainId: number; baseFee: bigint; tokens: TokenHolding[] }

/** A chain the reader can query, with an RPC counter around its transport. */
export type BalanceChain = {
  chainId: number
  tokens: readonly TokenInfo[]
  client: PublicClient<Transport, Chain>
}

/** Counts JSON-RPC round trips (HTTP requests) made by the quoting clients. */
export type RpcCounter = { readonly count: number; reset(): void }

const roundTripScope = new AsyncLocalStorage<{ count: number }>()

/** Runs `fn` and counts the JSON-RPC round trips the quoting clients make on its behalf (also under concurrency). */
export async function countRoundTrips<T>(fn: () => Promise<T>): Promise<{ result: T; roundTrips: number }> {
  const scope = { count: 0 }
  const result = await roundTripScope.run(scope, fn)
  return { result, roundTrips: scope.count }
}

/**
 * Public clients for quoting, one per chain, whose transport counts every HTTP round trip
 * (`onFetchRequest`); multicall batching is left to {@link readBalances}, which sends exactly one
 * `eth_call` per chain.
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
  const onFetchRequest = () => {
    count++
    const scope = roundTripScope.getStore()
    if (scope) scope.count++
  }
  return {
    rpc,
    chains: chains.map(({ chainId, chain, rpcUrl, tokens }) => ({
      chainId,
      tokens,
      client: createPublicClient({ chain, transport: http(rpcUrl, { retryCount: 0, onFetchRequest }) }),
    })),
  }
}

/**
 * Reads, on every chain in parallel and in ONE Multicall3 `aggregate3` per chain: each token's
 * wallet balance, its allowance to Permit2, the account's Compact lock balance (ERC-6909
 * `balanceOf(account, lockId)` for the allocator's lock tag), and the chain's base fee.
 */
export async function readBalances(
  chains: readonly BalanceChain[],
  account: Address,
): Promise<ChainHoldings[]> {
  return Promise.all(
    chains.map(async ({ chainId, tokens, client }) => {
      const lockIds = tokens.map((token) => toLockId(DEVNET_LOCK_TAG, token.address))
      const contracts = [
        { address: addresses.multicall3, abi: artifacts.Multicall3.abi, functionName: 'getBasefee' } as const,
        ...tokens.flatMap((token, i) => [
          { address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [account] } as const,
          {
            address: token.address,
            abi: erc20Abi,
            functionName: 'allowance',
            args: [account, addresses.permit2],
          } as const,
          {
            address: addresses.compact,
            abi: artifacts.TheCompact.abi,
            functionName: 'balanceOf',
            args: [account, lockIds[i] as bigint],
          } as const,
        ]),
      ]
      const results = await client.multicall({
        contracts,
        allowFailure: true,
        multicallAddress: addresses.multicall3,
        batchSize: 0,
      })
      const value = (i: number) => {
        const r = results[i]
        return r && r.status === 'success' ? BigInt(r.result as bigint) : 0n
      }
      return {
        chainId,
        baseFee: value(0),
        tokens: tokens.map((token, i) => ({
          token,
          wallet: value(1 + 3 * i),
          permit2Allowance: value(2 + 3 * i),
          lockId: lockIds[i] as bigint,
          locked: value(3 + 3 * i),
        })),
      }
    }),
  )
}
