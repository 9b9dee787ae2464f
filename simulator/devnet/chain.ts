import {
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient,
} from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { nodeHttpFetch } from '../../lib/nodeHttpFetch'
import type { AnvilInstance } from './anvil'

/** Names of the chains the devnet knows; any other chain id is named `Chain <id>`. */
export const chainNames: Record<number, string> = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  8453: 'Base',
  42161: 'Arbitrum One',
}

/** One running devnet chain, with the viem clients domain code uses. */
export type DevnetChain = {
  chainId: number
  name: string
  rpcUrl: string
  /** Set when this chain forks a live chain. */
  forkUrl?: string | undefined
  chain: Chain
  /** Reads. Concurrent calls are batched into one HTTP request. */
  publicClient: PublicClient<Transport, Chain>
  /** Anvil's cheat codes (`anvil_*`, `evm_*`). */
  testClient: TestClient<'anvil', Transport, Chain>
  /** The relayer's wallet: sends fills and claims. */
  relayerClient: WalletClient<Transport, Chain, PrivateKeyAccount>
  anvil: AnvilInstance
}

/** Builds the viem clients of one chain. */
export function createDevnetChain(parameters: {
  anvil: AnvilInstance
  relayer: PrivateKeyAccount
  forkUrl?: string | undefined
  /** The clients' transport (default: viem's `http` over node:http, as below). */
  transport?: Transport | undefined
}): DevnetChain {
  const { anvil, relayer, forkUrl } = parameters
  const name = chainNames[anvil.chainId] ?? `Chain ${anvil.chainId}`
  const chain = defineChain({
    id: anvil.chainId,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
    contracts: { multicall3: { address: '0xcA11bde05977b3631167028862bE2a173976CA11' } },
  })
  // `wait: 0` gathers the calls of one tick into one JSON-RPC batch: placement and funding send
  // hundreds of calls per chain at once. Over node:http, not Node's fetch (lib/nodeHttpFetch.ts).
  const transport =
    parameters.transport ??
    http(anvil.rpcUrl, {
      batch: { batchSize: 2_000, wait: 0 },
      retryCount: 0,
      fetchFn: nodeHttpFetch(),
    })
  return {
    chainId: anvil.chainId,
    name,
    rpcUrl: anvil.rpcUrl,
    forkUrl,
    chain,
    publicClient: createPublicClient({ chain, transport }),
    testClient: createTestClient({ chain, mode: 'anvil', transport }),
    relayerClient: createWalletClient({ chain, transport, account: relayer }),
    anvil,
  }
}
