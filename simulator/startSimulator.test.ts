// Own simulators, not the shared devnet: this file tests starting, closing and resuming from a state dir.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebhookInbox as startWebhookReceiver } from '../conformance/runner/webhookReceiver'
import { DevnetManifest, WebhookEnvelope } from '../spec'
import { verifyWebhookSignature } from './deposits/signWebhook'
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

  it('sends a signed test event to the configured webhook (POST /deposit-processor/webhooks/test)', async () => {
    const receiver = await startWebhookReceiver()
    try {
      const setup = await fetch(`${sim.baseUrl}/deposit-processor/setup`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ params: { webhookUrl: receiver.url, webhookSecret: 'test-secret' } }),
      })
      expect(setup.status).toBe(200)
      const res = await fetch(`${sim.baseUrl}/deposit-processor/webhooks/test`, {
        method: 'POST',
        headers: headers(),
        body: '{}',
      })
      expect(res.status).toBe(202)
      const { eventId } = (await res.json()) as { eventId: string }
      await receiver.waitFor(() => receiver.received.length > 0)
      const [hook] = receiver.received
      const envelope = WebhookEnvelope.parse(hook!.body)
      expect(envelope).toMatchObject({ type: 'test', test: true, eventId })
      const signature = hook!.headers['x-webhook-signature']
      expect(verifyWebhookSignature('test-secret', hook!.rawBody, String(signature))).toBe(true)
    } finally {
      await receiver.close()
    }
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

describe('startSimulator with --state-dir (a resumable run)', () => {
  it('keeps chain state and durable service data across a restart, and forgets quotes', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'sim-state-'))
    const recipient = '0x000000000000000000000000000000000000dEaD'
    const post = (sim: Simulator, path: string, body: unknown, version = '2026-04.blanc') =>
      fetch(`${sim.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json', 'x-api-version': version },
        body: JSON.stringify(body),
      })
    try {
      const first = await startSimulator({ port: 0, chainIds: [10, 8453], stateDir })
      let intentId: string
      try {
        const manifest = first.manifest()
        const account = manifest.accounts[0]!
        const chain = first.devnet.chain(10)
        const hash = await chain.relayerClient.sendTransaction({
          account: privateKeyToAccount(account.privateKey as `0x${string}`),
          to: recipient,
          value: parseEther('1.5'),
        })
        await chain.publicClient.waitForTransactionReceipt({ hash })
        expect(
          (await post(first, '/deposit-processor/setup', { params: { maxPriceDeviationBps: 77 } })).status,
        ).toBe(200)
        const usdc = manifest.chains.find((c) => c.chainId === 8453)!.tokens.find((t) => t.symbol === 'USDC')!
        const quote = await post(first, '/intents/route', {
          destinationChainId: 8453,
          tokenRequests: [{ tokenAddress: usdc.address, amount: '1000000' }],
          account: { address: account.address, accountType: 'EOA' },
        })
        expect(quote.status).toBe(200)
        intentId = ((await quote.json()) as { routes: { intentId: string }[] }).routes[0]!.intentId
      } finally {
        await first.close()
      }

      // A write a kill cut short leaves its temp file: the next start removes it.
      await mkdir(join(stateDir, 'intents'), { recursive: true })
      const stale = join(stateDir, 'intents', '7.json.999999.1.tmp')
      await writeFile(stale, '{"half": ')
      const second = await startSimulator({ port: 0, chainIds: [10, 8453], stateDir })
      try {
        expect(existsSync(stale)).toBe(false)
        expect(await second.devnet.chain(10).publicClient.getBalance({ address: recipient })).toBe(
          parseEther('1.5'),
        )
        const config = await fetch(`${second.baseUrl}/deposit-processor/setup`, {
          headers: { 'x-api-key': second.apiKey },
        })
        expect(((await config.json()) as { maxPriceDeviationBps: number }).maxPriceDeviationBps).toBe(77)
        // Quotes are never durable: the spec says a restarted quote store answers 404.
        const submit = await post(second, `/intents/${intentId}/submit`, {
          signatures: { origin: [`0x${'11'.repeat(65)}`], destination: `0x${'11'.repeat(65)}` },
        })
        expect(submit.status).toBe(404)
      } finally {
        await second.close()
      }
    } finally {
      await rm(stateDir, { recursive: true, force: true })
    }
  })
})
