import type { Address, Chain, Hex, PublicClient, Transport } from 'viem'
import { type TokenInfo, tokensByChain } from '../../contracts/addresses'
import type { BalanceClients, RpcCounter } from './createBalanceClients'
import { withNative } from './swaps'
import type { ChainHoldings } from './types'

/** A read asked for and not answered yet. */
export type PendingRead = {
  promise: Promise<ChainHoldings>
  resolve: (holdings: ChainHoldings) => void
  reject: (error: unknown) => void
}

/** A chain the reader queries: its tokens, its client, and the reader's caches for it. */
export type BalanceChain = {
  chainId: number
  /** Every token read on this chain, native ETH included. */
  tokens: readonly TokenInfo[]
  client: PublicClient<Transport, Chain>
  /** Encoded `aggregate3` calldata by account (bounded): the same account is quoted again and again. */
  calldata: Map<Address, Hex>
  /** Holdings decoded from an `aggregate3` answer, by the answer's bytes (bounded; frozen, shared). */
  decoded: Map<Hex, ChainHoldings>
  /** Reads asked for since the last one was sent: they go out together (see `readBalances`). */
  pending?: Map<Address, PendingRead> | undefined
}

/** What `readBalances` reads with: one {@link BalanceChain} per chain, and the clients' round-trip count. */
export type BalanceReader = { chains: readonly BalanceChain[]; rpc: RpcCounter }

/** Parameters of {@link createBalanceReader}. */
export type CreateBalanceReaderParameters = {
  /** The clients to read with (createBalanceClients): the caller builds them, the reader only uses them. */
  clients: BalanceClients
  /** Tokens per chain (default: the devnet's); native ETH is added to every chain's list. */
  tokens?: Record<number, readonly TokenInfo[]> | undefined
}

/**
 * The balance reader of the quoting service: per chain, the tokens to read (native ETH included)
 * and empty caches, over clients built by the caller.
 *
 * @example
 * const balances = createBalanceReader({ clients: createBalanceClients({ chains: devnet.chains }) })
 * const holdings = await readBalances(balances.chains, account)
 */
export function createBalanceReader(parameters: CreateBalanceReaderParameters): BalanceReader {
  // Native ETH (the zero address) is a token too: requestable as tokenOut, spendable from Compact locks.
  const tokens = withNative(parameters.tokens ?? tokensByChain)
  return {
    rpc: parameters.clients.rpc,
    chains: parameters.clients.clients.map(({ chainId, client }) => ({
      chainId,
      tokens: tokens[chainId] ?? [],
      client,
      calldata: new Map(),
      decoded: new Map(),
    })),
  }
}
