import type { Transport } from 'viem'
import { keepAliveTransport } from '../../lib/keepAliveTransport'
import { loopbackPost } from '../../lib/loopbackHttp'

/**
 * The transport of the devnet's clients to one of its own Anvils: keep-alive, the calls of one
 * turn of the event loop in one JSON-RPC batch (with `automine`, the relayer's
 * `eth_sendRawTransactionSync` in it too: BENCHMARKS.md, "Simulator round trips"), over the lean
 * loopback client (lib/loopbackHttp.ts: an Anvil this process started on this machine; a request
 * it cannot send as node:http would goes over node:http).
 *
 * @example
 * const devnet = await startDevnet({ transport: (rpcUrl) => devnetTransport(rpcUrl, true) })
 */
export function devnetTransport(rpcUrl: string, automine: boolean): Transport {
  return keepAliveTransport(rpcUrl, {
    batch: { maxSize: 2_000, waitingInBatch: automine },
    hop: loopbackPost,
  })
}
