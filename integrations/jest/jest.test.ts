import { createRequire } from 'node:module'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'

// Jest is not a dependency here: these call the modules as Jest does (globalSetup with the
// project config, test files with Jest's global hooks, then globalTeardown in the same process).
const require = createRequire(import.meta.url)
const globalSetup = require('intent-devnet/jest/globalSetup') as (g: unknown, p: unknown) => Promise<void>
const globalTeardown = require('intent-devnet/jest/globalTeardown') as () => Promise<void>
const jest = require('intent-devnet/jest') as {
  devnetManifest: () => {
    service: { baseUrl: string; apiKey: string }
    chains: { chainId: number; rpcUrl: string }[]
  }
  isolateDevnet: () => void
}

const probe = '0x000000000000000000000000000000000000bEEF'
const rpc = async (url: string, method: string, params: unknown[] = []) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: unknown }).result
}

describe('intent-devnet/jest', () => {
  beforeAll(async () => {
    await globalSetup({}, { globals: { intentDevnetOptions: { chains: [10], apiKey: 'jest-key' } } })
  }, 120_000)

  // Jest's hooks are globals; here they are vitest's.
  Object.assign(globalThis, { beforeEach, afterEach })
  jest.isolateDevnet()

  it('hands the manifest to test files through the environment', async () => {
    const manifest = jest.devnetManifest()
    expect(process.env.INTENT_DEVNET_URL).toBe(manifest.service.baseUrl)
    expect(manifest.service.apiKey).toBe('jest-key')
    expect(manifest.chains.map((chain) => chain.chainId)).toEqual([10])
    expect((await fetch(`${manifest.service.baseUrl}/health`)).status).toBe(200)
    await rpc(manifest.chains[0]!.rpcUrl, 'anvil_setBalance', [probe, '0x99'])
  })

  it('isolates tests by snapshot and revert', async () => {
    expect(await rpc(jest.devnetManifest().chains[0]!.rpcUrl, 'eth_getBalance', [probe, 'latest'])).toBe(
      '0x0',
    )
  })

  afterAll(async () => {
    const { rpcUrl } = jest.devnetManifest().chains[0]!
    await globalTeardown()
    // The chains went with the service.
    await expect(rpc(rpcUrl, 'eth_chainId')).rejects.toThrow()
  })
})
