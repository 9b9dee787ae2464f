import {
  type Chain,
  createPublicClient,
  defineChain,
  type Hex,
  type PublicClient,
  type Transport,
} from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { keepAliveTransport } from '../../lib/keepAliveTransport'
import { loopbackPost } from '../../lib/loopbackHttp'
import { nativeSigningAccount } from '../../lib/nativeSign'
import { syncSendTransport } from '../../lib/syncSendTransport'
import { BaseError } from '../../spec/BaseError'
import type { TargetCapabilities } from './types'

// The runner's chain clients and signing accounts, made once per process and shared by every
// chain step (chainActions.ts) and signing step (steps/signIntentOpStep.ts).

/** Thrown when a chain step cannot be carried out (unknown chain, account, token). */
export class ChainActionError extends BaseError {
  override name = 'Conformance.ChainActionError'
}

/** RPC URLs of the chains the run's own simulator started (see {@link markOwnChains}). */
const ownRpcUrls = new Set<string>()

/**
 * Marks chains as the run's own simulator's (it started them on this machine): their JSON-RPC
 * goes over the lean loopback client, the same requests and answers as node:http's for less
 * CPU. A target's chains otherwise (`--target`, `--chains`) keep node:http.
 *
 * @example
 * markOwnChains(caps.chains.map((chain) => chain.rpcUrl))
 */
export function markOwnChains(rpcUrls: Iterable<string>): void {
  for (const rpcUrl of rpcUrls) ownRpcUrls.add(rpcUrl)
}

/** The clients of a chain by `chainId rpcUrl`, made once per process (a client is not cheap to make). */
const clients = new Map<string, ChainClients>()

/** One chain of the target as the runner talks to it: its viem chain, transport and public client. */
export type ChainClients = {
  chain: Chain
  transport: Transport
  publicClient: PublicClient<Transport, Chain>
}

/** The clients of one of the target's chains; throws ChainActionError for a chain the target does not have. */
export function clientsFor(caps: TargetCapabilities, chainId: number): ChainClients {
  const entry = caps.chains.find((c) => c.chainId === chainId)
  if (!entry)
    throw new ChainActionError(`Chain ${chainId} is not among the target's chains.`, {
      metaMessages: [`Chains: ${caps.chains.map((c) => c.chainId).join(', ') || 'none'}.`],
    })
  const key = `${chainId} ${entry.rpcUrl}`
  let made = clients.get(key)
  if (!made) {
    made = makeClients(chainId, entry.rpcUrl)
    clients.set(key, made)
  }
  return made
}

function makeClients(chainId: number, rpcUrl: string): ChainClients {
  const chain = defineChain({
    id: chainId,
    name: `chain-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const transport = chainTransport(rpcUrl)
  return { chain, transport, publicClient: createPublicClient({ chain, transport }) }
}

/**
 * The transport of a target's chain: JSON-RPC over node:http keep-alive sockets (https: through
 * fetch), the calls of one synchronous run in one batch (`wait: 'microtask'`: the runner's reads
 * side by side start in one run, and a lone call leaves at once; a node that refuses batches gets
 * them one by one), viem's retries and error classes as its http() has them (viemErrors); a transaction is
 * sent with its receipt in one round trip where the node can (syncSendTransport.ts). Half the CPU
 * per round trip of viem's http() over nodeHttpFetch (BENCHMARKS.md, "Runner round trips").
 */
export function chainTransport(rpcUrl: string): Transport {
  return syncSendTransport(
    keepAliveTransport(rpcUrl, {
      batch: { wait: 'microtask' },
      retryCount: 3,
      viemErrors: true,
      // A chain of the run's own simulator: over the lean loopback client (lib/loopbackHttp.ts).
      ...(ownRpcUrls.has(rpcUrl) && { hop: loopbackPost }),
    }),
  )
}

/** Accounts by private key (the target's funded ones, and keys steps give), made once per run rather than once per step (deriving the address is the costly part). */
const fundedAccounts = new Map<Hex, PrivateKeyAccount>()

/** The viem account of a step's signer: a funded account of the target by index, or a `0x` key as given. */
export function signerAccount(caps: TargetCapabilities, from: number | string): PrivateKeyAccount {
  const key = signerKey(caps, from)
  // Signs with libsecp256k1, to the same bytes as viem's own account (lib/nativeSign.ts). A key
  // given as such (a scenario's fresh account) signs several steps too: kept alike, bounded.
  let account = fundedAccounts.get(key)
  if (!account) {
    account = nativeSigningAccount(key)
    if (fundedAccounts.size >= 4096) fundedAccounts.clear()
    fundedAccounts.set(key, account)
  }
  return account
}

/** The private key of a step's account: a funded account of the target by index, or a `0x` key as given. */
export function signerKey(caps: TargetCapabilities, from: number | string): Hex {
  if (typeof from === 'number') {
    const key = caps.accounts[from]
    if (!key)
      throw new ChainActionError(`No funded account #${from}: the target gives ${caps.accounts.length}.`)
    return key
  }
  if (/^0x[0-9a-fA-F]{64}$/.test(from)) return from as Hex
  throw new ChainActionError(`"${from}" is neither a funded account index nor a private key.`)
}

/** The RPC URL of one of the target's chains ('' when it has none). */
export function rpcUrlOf(caps: TargetCapabilities, chainId: number): string {
  return caps.chains.find((c) => c.chainId === chainId)?.rpcUrl ?? ''
}
