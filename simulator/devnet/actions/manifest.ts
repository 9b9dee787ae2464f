import { tokensByChain } from '../../../contracts/addresses'
import type { DevnetManifest } from '../../../spec'
import type { DevnetState } from '../devnetState'
import { DevnetError } from '../errors'
import { nowSeconds } from './clock'

/**
 * The devnet manifest (`GET /_devnet/manifest`): the service, signers, chains with their RPC
 * URLs, contracts and tokens, the funded accounts with their keys, and the clock. Throws until
 * the service part is set (once the HTTP server listens).
 *
 * @example
 * const { chains, accounts } = manifest(state)
 */
export function manifest(state: DevnetState): DevnetManifest {
  const { serviceInfo, keys } = state
  if (!serviceInfo)
    throw new DevnetError('The devnet manifest has no service part yet.', {
      details: 'Call setServiceInfo() once the HTTP server listens.',
    })
  return {
    service: serviceInfo,
    signers: {
      server: keys.server.address,
      allocator: keys.allocator.address,
      relayer: keys.relayer.address,
    },
    chains: state.chains.map((chain) => ({
      chainId: chain.chainId,
      name: chain.name,
      rpcUrl: chain.rpcUrl,
      ...(chain.forkUrl ? { forkUrl: chain.forkUrl } : {}),
      contracts: state.contractsOf.get(chain.chainId) ?? {},
      tokens: (tokensByChain[chain.chainId] ?? []).map(({ symbol, name, address, decimals }) => ({
        symbol,
        name,
        address,
        decimals,
      })),
    })),
    accounts: keys.accounts.map(({ label, address, privateKey }) => ({ label, address, privateKey })),
    // Test keys, not secrets: a recorder restores them so a replay has the same signers and accounts.
    mnemonic: keys.mnemonic,
    clock: { now: nowSeconds(state), offsetSeconds: state.offset },
  }
}
