import { type Chain, createPublicClient, type PublicClient, type Transport } from 'viem'
import { keepAliveTransport } from '../../lib/keepAliveTransport'
import { loopbackPost } from '../../lib/loopbackHttp'

/** A chain the balance clients read (a DevnetChain fits). */
export type BalanceClientChain = { chainId: number; chain: Chain; rpcUrl: string }

/** Counts JSON-RPC round trips (HTTP requests) made by the balance clients. */
export type RpcCounter = { readonly count: number; reset(): void }

/** One public client per chain, and the count of HTTP requests they made. */
export type BalanceClients = {
  clients: readonly { chainId: number; client: PublicClient<Transport, Chain> }[]
  rpc: RpcCounter
}

/** Makes the transport of one chain's balance client; `onRoundTrip` is called once per HTTP request. */
export type BalanceTransport = (rpcUrl: string, onRoundTrip: () => void) => Transport

/** Parameters of {@link createBalanceClients}. */
export type CreateBalanceClientsParameters = {
  chains: readonly BalanceClientChain[]
  /** The transport (default {@link balanceTransport}); the transport bench swaps it. */
  transport?: BalanceTransport | undefined
}

/**
 * The balance clients' transport: {@link keepAliveTransport} with `batch` (the `eth_call`s of one
 * synchronous run share one HTTP request, a JSON-RPC batch), counted per HTTP request, no
 * retries. Kept over viem's `http(url, { batch: true })` because it measured faster for this
 * workload (scripts/bench/transport.ts; BENCHMARKS.md).
 */
export const balanceTransport: BalanceTransport = (rpcUrl, onRoundTrip) =>
  // A microtask: readBalances gathers its reads for a turn already, and sends them in one run.
  // The devnet's own Anvils: over the lean loopback client (lib/loopbackHttp.ts).
  keepAliveTransport(rpcUrl, { onRoundTrip, batch: { wait: 'microtask' }, hop: loopbackPost })

/**
 * Public clients for balance reads, one per chain, over a batching transport (the `eth_call`s of
 * one synchronous run share one HTTP request, counted; no retries), so the reads that
 * `readBalances` sends together are exactly one round trip per chain (the wire count checks it:
 * quoting.test.ts). No AsyncLocalStorage: on Node 20 an active one makes every await of the
 * process slower.
 *
 * @example
 * const balances = createBalanceReader({ clients: createBalanceClients({ chains: devnet.chains }) })
 */
export function createBalanceClients(parameters: CreateBalanceClientsParameters): BalanceClients {
  const transport = parameters.transport ?? balanceTransport
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
    clients: parameters.chains.map(({ chainId, chain, rpcUrl }) => ({
      chainId,
      client: createPublicClient({ chain, transport: transport(rpcUrl, onRoundTrip) }),
    })),
  }
}
