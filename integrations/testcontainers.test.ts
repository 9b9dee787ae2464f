import { IntentDevnetContainer, type StartedIntentDevnetContainer } from 'intent-devnet/testcontainers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureImage } from '../scripts/image/buildImage'
import { hasDockerEngine } from '../scripts/image/dockerEngine'

// No registry here, so no reaper image: the module must work without it (docs/ci.md). This
// machine is itself a container whose engine has no bridge network, where testcontainers would
// look for the bridge's gateway to reach containers: the host override says it is 127.0.0.1,
// which host networking makes true.
process.env.TESTCONTAINERS_RYUK_DISABLED = 'true'
process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1'

/** A port N with N + 1 free too (for --rpc-port with two chains). */
const freePortPair = async (): Promise<number> => {
  const { createServer } = await import('node:net')
  const listen = (port: number) =>
    new Promise<import('node:net').Server | undefined>((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(undefined))
      server.listen(port, '127.0.0.1', () => resolve(server))
    })
  for (;;) {
    const first = await listen(0)
    const port = (first!.address() as import('node:net').AddressInfo).port
    const second = await listen(port + 1)
    await Promise.all([first, second].map((server) => new Promise((r) => (server ? server.close(r) : r(0)))))
    if (second && port < 65000) return port
  }
}

const rpc = async (url: string, method: string, params: unknown[] = []) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: unknown }).result
}

// Needs a Docker engine: skipped on a machine with nothing but npm; `.ci/run` starts one and sets
// INTENT_DEVNET_REQUIRE_DOCKER, under which a missing engine fails instead (hasDockerEngine).
describe.skipIf(!hasDockerEngine())('IntentDevnetContainer (a real Docker engine)', () => {
  let tag: string
  let devnet: StartedIntentDevnetContainer | undefined

  beforeAll(async () => {
    tag = await ensureImage()
  }, 180_000)
  afterAll(async () => {
    await devnet?.stop()
  })

  it('starts the devnet with the chains and key asked for, reachable from the host, and stops it', async () => {
    const rpcPort = await freePortPair()
    devnet = await new IntentDevnetContainer(tag)
      .withChainIds([10, 8453])
      .withApiKey('k')
      .withQuoteTtlSeconds(77)
      .withRpcPort(rpcPort)
      .withAccountCount(3)
      .withBalance(5)
      .start()
    expect(devnet.apiKey).toBe('k')
    expect(devnet.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((await fetch(`${devnet.baseUrl}/health`)).status).toBe(200)
    expect(
      (await fetch(`${devnet.baseUrl}/_devnet/manifest`, { headers: { 'x-api-key': 'wrong' } })).status,
    ).toBe(401)

    const manifest = await devnet.manifest()
    expect(manifest.service).toMatchObject({ apiKey: 'k', quoteTtlSeconds: 77 })
    expect(manifest.chains.map((chain) => chain.chainId)).toEqual([10, 8453])
    // --rpc-port: the chains on N and N + 1, as Anvil-like tools do.
    expect(manifest.chains.map((chain) => chain.rpcUrl)).toEqual([
      `http://127.0.0.1:${rpcPort}`,
      `http://127.0.0.1:${rpcPort + 1}`,
    ])
    expect(manifest.accounts).toHaveLength(3)
    for (const chain of manifest.chains)
      expect(await rpc(chain.rpcUrl, 'eth_chainId')).toBe(`0x${chain.chainId.toString(16)}`)
    // A funded account really holds ETH on the chain the host reaches.
    expect(
      BigInt(
        (await rpc(manifest.chains[0]!.rpcUrl, 'eth_getBalance', [
          manifest.accounts[0]!.address,
          'latest',
        ])) as string,
      ),
    ).toBe(5n * 10n ** 18n)

    const id = devnet.getId()
    await devnet.stop()
    devnet = undefined
    const { spawnSync } = await import('node:child_process')
    // Removed, not just stopped: nothing is left for a reaper to clean.
    expect(spawnSync('docker', ['inspect', id]).status).not.toBe(0)
  })

  it('says how to build the image when it is missing, instead of trying a registry', async () => {
    await expect(new IntentDevnetContainer('intent-devnet:no-such-version').start()).rejects.toThrow(
      /intent-devnet:no-such-version is not in the local Docker engine/,
    )
  })
})
