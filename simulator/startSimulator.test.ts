import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DevnetManifest } from '../conformance/spec'
import { type Simulator, startSimulator } from './startSimulator'

describe('startSimulator (a real devnet behind a listening service)', () => {
  let sim: Simulator
  const headers = () => ({ 'x-api-key': sim.apiKey, 'content-type': 'application/json' })

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, chainIds: [10, 8453] })
  })
  afterAll(async () => {
    await sim?.close()
  })

  it('serves the manifest of the running chains over HTTP', async () => {
    const res = await fetch(`${sim.baseUrl}/_devnet/manifest`, { headers: headers() })
    expect(res.status).toBe(200)
    const manifest = DevnetManifest.parse(await res.json())
    expect(manifest.service.baseUrl).toBe(sim.baseUrl)
    expect(manifest.chains.map((c) => c.chainId)).toEqual([10, 8453])
    const rpc = await fetch(manifest.chains[0]!.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
    expect(((await rpc.json()) as { result: string }).result).toBe('0xa')
  })

  it('reports every chain up in /health, without a key', async () => {
    const res = await fetch(`${sim.baseUrl}/health`)
    const body = (await res.json()) as { status: string; chains: { chainId: number; up: boolean }[] }
    expect(res.status).toBe(200)
    expect(body.status).toBe('ok')
    expect(body.chains.every((c) => c.up)).toBe(true)
  })

  it('runs the deposit processor behind its routes', async () => {
    const set = await fetch(`${sim.baseUrl}/deposit-processor/setup`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ params: { webhookSecret: 's3cret', maxPriceDeviationBps: 150 } }),
    })
    expect(set.status).toBe(200)
    const get = await fetch(`${sim.baseUrl}/deposit-processor/setup`, { headers: headers() })
    const config = (await get.json()) as Record<string, unknown>
    expect(config.maxPriceDeviationBps).toBe(150)
    expect(config.webhookSecret).not.toBe('s3cret')
  })

  it('moves the one clock for the service and every chain', async () => {
    const before = sim.devnet.now()
    const res = await fetch(`${sim.baseUrl}/_devnet/clock/advance`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ seconds: 3600 }),
    })
    expect(res.status).toBe(200)
    expect(sim.devnet.now()).toBeGreaterThanOrEqual(before + 3600)
    const block = await sim.devnet.chain(8453).publicClient.getBlock()
    expect(Number(block.timestamp)).toBeGreaterThanOrEqual(before + 3600)
  })
})
