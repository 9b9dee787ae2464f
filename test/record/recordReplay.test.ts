import { existsSync } from 'node:fs'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { replayPassed, replayRecording } from '../../conformance/record/replayRecording'
import { startRecorder } from '../../conformance/record/startRecorder'
import { writeRecording } from '../../conformance/record/writeRecording'
import { renderConsole } from '../../conformance/reporters'
import { signTypedDataAs } from '../../conformance/runner/chainActions'
import type { TargetCapabilities } from '../../conformance/runner/types'
import { startWebhookReceiver, type WebhookReceiver } from '../../conformance/runner/webhookReceiver'
import { type Simulator, startSimulator } from '../../simulator/startSimulator'

/**
 * Record and replay end to end: real clients (a plain fetch client and the public SDK) talk to a
 * real simulator through the recording proxy; what was written replays against fresh simulators
 * started from the recorded chain state.
 */
const CHAINS = [10, 8453]
let sim: Simulator
let dir: string
let receiver: WebhookReceiver

beforeAll(async () => {
  sim = await startSimulator({ port: 0, host: '127.0.0.1', chainIds: CHAINS, apiKey: 'record-test-key-0123' })
  dir = await mkdtemp(join(tmpdir(), 'record-test-'))
  receiver = await startWebhookReceiver()
}, 120_000)

afterAll(async () => {
  await receiver?.close()
  await sim?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

const blancHeaders = () => ({
  'x-api-key': sim.apiKey,
  'x-api-version': '2026-04.blanc',
  'content-type': 'application/json',
})

/** A plain fetch client: blanc quote → sign the typed data as given → submit → status until final; optionally submits twice. */
async function blancSession(base: string, account: number, submitTwice = false) {
  const key = sim.manifest().accounts[account]!.privateKey as Hex
  const manifest = (await (await fetch(`${base}/_devnet/manifest`, { headers: blancHeaders() })).json()) as {
    chains: { chainId: number; tokens: { symbol: string; address: string }[] }[]
  }
  const usdc = manifest.chains
    .find((c) => c.chainId === 8453)!
    .tokens.find((t) => t.symbol === 'USDC')!.address
  const route = (await (
    await fetch(`${base}/intents/route`, {
      method: 'POST',
      headers: blancHeaders(),
      body: JSON.stringify({
        destinationChainId: 8453,
        tokenRequests: [{ tokenAddress: usdc, amount: '1000000' }],
        account: { address: privateKeyToAccount(key).address, accountType: 'EOA' },
      }),
    })
  ).json()) as { routes: { intentId: string; signData: { origin: unknown; destination: unknown } }[] }
  const { intentId, signData } = route.routes[0]!
  const caps = { accounts: [key] } as unknown as TargetCapabilities
  const body = JSON.stringify({
    signatures: {
      origin: await signTypedDataAs(caps, 0, signData.origin),
      destination: await signTypedDataAs(caps, 0, signData.destination),
    },
  })
  const submit = () =>
    fetch(`${base}/intents/${intentId}/submit`, { method: 'POST', headers: blancHeaders(), body })
  expect((await submit()).status).toBe(201)
  for (let i = 0; i < 200; i++) {
    const status = (await (
      await fetch(`${base}/intents/${intentId}`, { headers: blancHeaders() })
    ).json()) as {
      status: string
    }
    if (status.status === 'COMPLETED' || status.status === 'FAILED') break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  if (submitTwice) return (await submit()).status
  return undefined
}

/** The outcome of a replay as a comparable value: each check's id and status. */
const _outcome = (run: Awaited<ReturnType<typeof replayRecording>>) =>
  run.scenarios.map((s) => ({ status: s.status, checks: s.checks.map((c) => `${c.id}:${c.status}`) }))

describe('record and replay', () => {
  let blancFile: string

  it('records a fetch client through the proxy (key never written) and replays green', async () => {
    const recorder = await startRecorder({ target: sim.baseUrl, apiKey: sim.apiKey, port: 0 })
    await blancSession(recorder.url, 0)
    blancFile = join(dir, 'blanc.yaml')
    const written = await writeRecording(await recorder.stop(), blancFile)
    const text = await readFile(blancFile, 'utf8')
    expect(text).not.toContain(sim.apiKey)
    expect(written.stateDir).toBe(`${blancFile}.state`)
    expect(existsSync(join(written.stateDir!, 'chain-8453.state'))).toBe(true)
    const scenario = parse(text) as { steps: Record<string, unknown>[] }
    const kinds = scenario.steps.map((s) => Object.keys(s).find((k) => k !== 'name' && k !== 'expect'))
    expect(kinds).toContain('sign')
    const submit = scenario.steps.find((s) => String(s.name).startsWith('POST /intents/${'))!
    expect((submit.http as { path: string }).path).toMatch(/^\/intents\/\$\{\w+\}\/submit$/)

    // More sessions, each replayed three times: sessions.test.ts.
    const run = await replayRecording({ file: blancFile })
    expect(replayPassed(run), renderConsole(run)).toBe(true)
  }, 120_000)

  it('the same file with one expected status edited replays red, naming that step', async () => {
    const edited = join(dir, 'edited.yaml')
    const text = await readFile(blancFile, 'utf8')
    const scenario = parse(text) as { steps: { name: string; expect?: { status?: number } }[] }
    const index = scenario.steps.findIndex((s) => s.name.startsWith('POST /intents/${'))
    expect(text.match(/status: 201/g)).toHaveLength(1)
    await writeFile(edited, text.replace('status: 201', 'status: 200'))
    await cp(`${blancFile}.state`, `${edited}.state`, { recursive: true })
    const run = await replayRecording({ file: edited })
    expect(replayPassed(run)).toBe(false)
    const failed = run.scenarios[0]!.checks.filter((c) => c.status === 'failed')
    expect(failed.map((c) => c.step)).toEqual([index + 1])
    expect(failed[0]!.name).toBe('status')
    expect(renderConsole(run)).toContain(`recorded.blanc/${index + 1}/status`)
  }, 60_000)

  it('a session that hit an injected fault replays red exactly at the faulted step against a healthy simulator', async () => {
    const recorder = await startRecorder({ target: sim.baseUrl, apiKey: sim.apiKey, port: 0 })
    sim.faults.enable(['intents.accept-duplicate'])
    let second: number | undefined
    try {
      second = await blancSession(recorder.url, 1, true)
    } finally {
      sim.faults.disable(['intents.accept-duplicate'])
    }
    expect(second).toBe(201)
    const file = join(dir, 'faulted.yaml')
    await writeRecording(await recorder.stop(), file)
    const steps = (parse(await readFile(file, 'utf8')) as { steps: { name: string }[] }).steps
    const last = steps.length
    expect(steps[last - 1]!.name).toMatch(/^POST \/intents\/\$\{\w+\}\/submit → 201$/)
    const run = await replayRecording({ file })
    const failed = run.scenarios[0]!.checks.filter((c) => c.status === 'failed')
    expect(failed.length).toBeGreaterThan(0)
    expect(new Set(failed.map((c) => c.step))).toEqual(new Set([last]))
    expect(failed.find((c) => c.name === 'status')?.actual).toBe(404)
  }, 90_000)

  it('a route the target no longer offers: the replay says which the client picked and what was offered', async () => {
    const edited = join(dir, 'gone.yaml')
    const text = await readFile(blancFile, 'utf8')
    // The client took routes[0]; its origin chain is whichever chain quotes cheapest (per-chain gas prices).
    const picked =
      /(choose:\n\s+\/routes\/0:\n(?:\s+.*\n)*?\s+\/cost\/input\/0\/chainId:\n\s+equals:) (10|8453)\n/
    expect(text).toMatch(picked)
    await writeFile(edited, text.replace(picked, '$1 42\n'))
    await cp(`${blancFile}.state`, `${edited}.state`, { recursive: true })
    const run = await replayRecording({ file: edited })
    expect(replayPassed(run)).toBe(false)
    const choice = run.scenarios[0]!.checks.find((c) => c.name.startsWith('choose /routes/'))
    expect(choice?.status).toBe('failed')
    expect(choice?.message).toMatch(
      /^no element of \/routes is the one the client picked \(.*\/cost\/input\/0\/chainId 42.*\); the answer lists \d+: 0: .*\/cost\/input\/0\/chainId=(10|8453)/,
    )
  }, 60_000)

  it('records a target without the control API and says chain state could not be captured', async () => {
    const plain: Server = createServer((req, res) => {
      if (req.url === '/greeting') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ greeting: 'hello', servedAt: Date.now() }))
      } else {
        res.writeHead(404, { 'content-type': 'application/json' })
        res.end('{"error":"not found"}')
      }
    })
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
    const target = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`
    try {
      const recorder = await startRecorder({ target, apiKey: 'plain-key-1234', port: 0 })
      const answer = await fetch(`${recorder.url}/greeting`, { headers: { 'x-api-key': 'plain-key-1234' } })
      expect(await answer.json()).toMatchObject({ greeting: 'hello' })
      const recording = await recorder.stop()
      expect(recording.chainStateProblem).toMatch(/no control API .*could not be captured/)
      const file = join(dir, 'plain.yaml')
      const written = await writeRecording(recording, file)
      expect(written.stateDir).toBeUndefined()
      expect(written.summary).toMatch(/not captured: the target has no control API/)
      expect(existsSync(`${file}.state`)).toBe(false)
      const run = await replayRecording({ file, target, apiKey: 'plain-key-1234' })
      expect(replayPassed(run), renderConsole(run)).toBe(true)
      expect(run.scenarios[0]!.checks.map((c) => c.name)).toContain('body /greeting')
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()))
    }
  }, 60_000)
})
