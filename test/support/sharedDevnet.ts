import { workerDevnet } from '../../integrations/vitest'
import type { AnvilInstance } from '../../simulator/devnet/anvil'
import { createDevnetChain, type DevnetChain } from '../../simulator/devnet/chain'
import { type DevKeys, deriveDevKeys } from '../../simulator/devnet/keys'
import type { DevnetManifest } from '../../spec'

/**
 * A devnet the 'shared-devnet' project's global setup started (vitest.config.ts,
 * integrations/vitest.ts), as our end-to-end tests use a simulator: its URL and key, and
 * `devnet.chain(id)` with the viem clients of each chain, `devnet.keys` with the funded accounts.
 */
export type SharedDevnet = {
  baseUrl: string
  apiKey: string
  manifest: DevnetManifest
  devnet: {
    keys: DevKeys
    chains: readonly DevnetChain[]
    chain(chainId: number): DevnetChain
    /**
     * The devnet clock, unix seconds: the wall clock plus the offset the manifest gave. Files of
     * the shared project revert every clock move they make (`isolateDevnet`), so it holds for each.
     */
    now(): number
  }
}

/**
 * This worker's devnet of the shared project (`workerDevnet()`: one per worker). It runs the default mnemonic (the global
 * setup's options have none): its keys are derived here, and checked against the manifest.
 */
export function sharedDevnet(manifest: DevnetManifest = workerDevnet()): SharedDevnet {
  const keys = deriveDevKeys({ accountCount: manifest.accounts.length })
  const derived = [keys.relayer.address, ...keys.accounts.map((account) => account.address)]
  const announced = [manifest.signers.relayer, ...manifest.accounts.map((account) => account.address)]
  if (derived.join() !== announced.join())
    throw new Error('The shared devnet does not run the default mnemonic: its keys cannot be derived here.')
  const chains = manifest.chains.map((chain) =>
    createDevnetChain({ anvil: remoteAnvil(chain.chainId, chain.rpcUrl), relayer: keys.relayer.account }),
  )
  const byId = new Map(chains.map((chain) => [chain.chainId, chain]))
  return {
    baseUrl: manifest.service.baseUrl,
    apiKey: manifest.service.apiKey,
    manifest,
    devnet: {
      keys,
      chains,
      chain(chainId) {
        const chain = byId.get(chainId)
        if (!chain) throw new Error(`The shared devnet does not run chain ${chainId}.`)
        return chain
      },
      now: () => Math.floor(Date.now() / 1000) + manifest.clock.offsetSeconds,
    },
  }
}

/**
 * One chain of the shared devnet, as the chain clients need it: its Anvil runs in the vitest
 * main process (the global setup), so this worker knows its URL but not its process.
 */
function remoteAnvil(chainId: number, rpcUrl: string): AnvilInstance {
  const url = new URL(rpcUrl)
  const notOurs = () => {
    throw new Error(`Chain ${chainId}'s Anvil belongs to the shared devnet's global setup, not this worker.`)
  }
  return {
    chainId,
    host: url.hostname,
    port: Number(url.port),
    rpcUrl,
    pid: 0,
    kill: notOurs,
    stop: async () => notOurs(),
    alive: true,
    exited: new Promise<void>(() => {}),
  }
}
