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
  /** Encoded `aggregate3` calldata by account (bounded): the same account is quoted again and again. */
  calldata: Map<Address, Hex>
}

/** Counts JSON-RPC round trips (HTTP requests) made by the quoting clients. */
export type RpcCounter = { readonly count: number; reset(): void }

/** Round trips of one quote: {@link readBalances} adds one per `eth_call` it sends. */
export type RoundTripScope = { count: number }

/**
 * Public clients for quoting, one per chain, over {@link keepAliveTransport} (one HTTP request
 * per JSON-RPC request, counted, no batching, no retries), so each `eth_call` of
 * {@link readBalances} is exactly one round trip (the wire count checks it: quoting.test.ts).
 * No AsyncLocalStorage: on Node 20 an active one makes every await of the process slower.
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
      client: createPublicClient({ chain, transport: keepAliveTransport(rpcUrl, { onRoundTrip }) }),
      calldata: new Map(),
    })),
  }
}

/** Most accounts whose calldata a chain keeps. */
const CALLDATA_CACHE_SIZE = 1024

/**
 * The `aggregate3` calldata of a chain for an account: the chain's base fee (`getBasefee`), then
 * per token its `balanceOf(account)`, `allowance(account, Permit2)` and the Compact lock balance
 * `balanceOf(account, lockId)`, every call allowed to fail. Native ETH (the zero address in the
 * token list) reads `getEthBalance(account)` and its Compact lock (lock id token = zero address).
 */
function aggregateCalldata(chain: BalanceChain, account: Address, lockIds: readonly bigint[]): Hex {
  const cached = chain.calldata.get(account)
  if (cached) return cached
  const calls = [
    {
      target: addresses.multicall3,
      allowFailure: true,
      callData: encodeFunctionData({ abi: artifacts.Multicall3.abi, functionName: 'getBasefee' }),
    },
    ...chain.tokens.flatMap((token, i) => [
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
          args: [account, lockIds[i] as bigint],
        }),
      },
    ]),
  ]
  const data = encodeFunctionData({
    abi: artifacts.Multicall3.abi,
    functionName: 'aggregate3',
    args: [calls],
  })
  if (chain.calldata.size >= CALLDATA_CACHE_SIZE) chain.calldata.clear()
  chain.calldata.set(account, data)
  return data
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
 * Reads, on every chain in parallel and in ONE Multicall3 `aggregate3` `eth_call` per chain: each
 * token's wallet balance, its allowance to Permit2, the account's Compact lock balance (ERC-6909
 * `balanceOf(account, lockId)` for the allocator's lock tag), and the chain's base fee. A call
 * that fails (or returns no data) reads as 0. `scope.count` grows by one per `eth_call`.
 */
export async function readBalances(
  chains: readonly BalanceChain[],
  account: Address,
  scope?: RoundTripScope,
): Promise<ChainHoldings[]> {
  return Promise.all(
    chains.map(async (chain) => {
      const { chainId, tokens, client } = chain
      const lockIds = tokens.map((token) => lockIdOf(token.address))
      if (scope) scope.count++
      const { data } = await client.call({
        to: addresses.multicall3,
        data: aggregateCalldata(chain, account, lockIds),
      })
      const results = decodeFunctionResult({
        abi: artifacts.Multicall3.abi,
        functionName: 'aggregate3',
        data: data ?? '0x',
      })
      const value = (i: number): bigint => {
        const r = results[i]
        if (!r?.success || r.returnData === '0x') return 0n
        try {
          return decodeAbiParameters(UINT256, r.returnData)[0]
        } catch {
          return 0n
        }
      }
      return {
        chainId,
        baseFee: value(0),
        tokens: tokens.map((token, i) => ({
          token,
          wallet: value(1 + 3 * i),
          permit2Allowance: isNative(token.address) ? 0n : value(2 + 3 * i),
          lockId: lockIds[i] as bigint,
          locked: value(3 + 3 * i),
        })),
      }
    }),
  )
}
