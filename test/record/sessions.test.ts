import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { replayPassed, replayRecording } from '../../conformance/record/replayRecording'
import { type Recorder, startRecorder } from '../../conformance/record/startRecorder'
import { writeRecording } from '../../conformance/record/writeRecording'
import { renderConsole } from '../../conformance/reporters'
import { startWebhookReceiver, type WebhookReceiver } from '../../conformance/runner/webhookReceiver'
import { type Simulator, startSimulator } from '../../simulator/startSimulator'
import {
  alpsSession,
  blancCrossChain,
  depositSession,
  faultSession,
  sdkSession,
  withdrawalSession,
} from './sessions'

/**
 * The sessions people record, each recorded through the proxy (and its RPC proxies) against one
 * shared simulator that earlier sessions have already used (so its chains' base fees have moved
 * off their boot values), then replayed three times from the recorded state, every replay green,
 * and once with `--target` against a fresh devnet where the session does not depend on the
 * recorded state.
 */
/** The parts of a written step these tests look at. */
type YamlStep = {
  http?: { path?: string }
  choose?: Record<string, Record<string, unknown>>
  poll?: { final: Record<string, { oneOf: string[] }> }
  chain?: { action?: string }
  webhook?: { type?: string; signature?: string }
}

const CHAINS = [10, 8453]
let sim: Simulator
let fresh: Simulator
let dir: string
let receiver: WebhookReceiver

beforeAll(async () => {
  ;[sim, fresh] = await Promise.all([
    // Configured as people configure theirs: quotes charge other gas prices than the defaults
    // (the replay restores them from the recorded manifest, or every fee differs).
    startSimulator({
      port: 0,
      host: '127.0.0.1',
      chainIds: CHAINS,
      apiKey: 'sessions-key-0123',
      gasPrices: { '10': '0.003', '8453': '0.05' },
    }),
    startSimulator({ port: 0, host: '127.0.0.1', chainIds: CHAINS, apiKey: 'fresh-key-0123' }),
  ])
  // A devnet people record on has been used: Base's base fee is no longer Optimism's.
  await sim.devnet.chain(8453).testClient.mine({ blocks: 3 })
  dir = await mkdtemp(join(tmpdir(), 'record-sessions-'))
  receiver = await startWebhookReceiver()
}, 120_000)

afterAll(async () => {
  await receiver?.close()
  await Promise.all([sim?.close(), fresh?.close()])
  if (dir && !process.env.KEEP_RECORDINGS) await rm(dir, { recursive: true, force: true })
  else console.log('kept', dir)
})

/** Records one session, writes it, replays it three times (three at once) and once against the fresh devnet. */
async function recordAndReplay(
  name: string,
  session: (recorder: Recorder) => Promise<void>,
  options: { againstFresh: boolean },
) {
  const recorder = await startRecorder({ target: sim.baseUrl, apiKey: sim.apiKey, port: 0 })
  try {
    await session(recorder)
  } finally {
    await recorder.stop()
  }
  const file = join(dir, `${name}.yaml`)
  const written = await writeRecording(recorder.recording(), file)
  const text = await readFile(file, 'utf8')
  expect(text).not.toContain(sim.apiKey)
  const runs = await Promise.all(Array.from({ length: 3 }, () => replayRecording({ file })))
  for (const run of runs) expect(replayPassed(run), renderConsole(run)).toBe(true)
  if (options.againstFresh) {
    const run = await replayRecording({ file, target: fresh.baseUrl, apiKey: fresh.apiKey })
    expect(replayPassed(run), renderConsole(run)).toBe(true)
  }
  return { file, text, written, runs }
}

describe('every recorded session replays, three times from its state and against a fresh devnet', () => {
  it('blanc, no access list: the client picks a cross-chain route; the replay picks it by content', async () => {
    const { text } = await recordAndReplay('blanc', (r) => blancCrossChain(sim, r, 2), { againstFresh: true })
    const steps = (parse(text) as { steps: YamlStep[] }).steps
    const quote = steps.find((s) => s.http?.path === '/intents/route')!
    // The route the client signed is named by its content, not only by its place.
    const [place, where] = Object.entries(quote.choose as Record<string, Record<string, unknown>>)[0]!
    expect(place).toMatch(/^\/routes\/\d+$/)
    expect(where['/cost/input/0/chainId']).toEqual({ equals: 10 })
    expect(where['/fundingMethod']).toBeDefined()
    // The status poll ends on a final status.
    const poll = steps.find((s) => s.poll)!
    expect(poll.poll!.final['/status']?.oneOf).toEqual(expect.arrayContaining(['FAILED', 'EXPIRED']))
  }, 240_000)

  it('alps: the intentOp re-signed and submitted, polled to COMPLETED', async () => {
    const { text } = await recordAndReplay('alps', (r) => alpsSession(sim, r, 3), { againstFresh: true })
    expect(text).toContain('signIntentOp:')
  }, 240_000)

  it('the public SDK (an EOA transfer with a destination call) through the proxy and its RPC proxies', async () => {
    const { text, written } = await recordAndReplay('sdk', (r) => sdkSession(sim, r, 6), {
      againstFresh: true,
    })
    expect(text).toContain('signIntentOp:')
    // The SDK 1.15 signs Compact funding for the older Compact's domain, the runner for ours (both
    // accepted, on chain too): the bytes differ and the file says so; the replay still settles.
    expect(written.notes.join('\n')).toMatch(/signatures differ from the ones the runner makes/)
  }, 240_000)

  it('a deposit with its signed webhook (relayed to the client), HMAC checked at replay', async () => {
    const account = privateKeyToAccount(`0x${'5e'.repeat(32)}` as Hex).address
    const { text, runs } = await recordAndReplay(
      'deposit',
      (r) => depositSession(sim, r, receiver, account),
      {
        againstFresh: true,
      },
    )
    const steps = (parse(text) as { steps: YamlStep[] }).steps
    expect(steps.some((s) => s.chain?.action === 'transfer')).toBe(true)
    expect(steps.find((s) => s.webhook?.type === 'deposit-received')?.webhook?.signature).toBe('valid')
    // The client's list of its deposits, polled until settled, ends its replay poll on that too.
    const listed = steps.find((s) => s.http?.path?.startsWith('/deposit-processor/deposits'))!
    expect(listed.poll?.final['/deposits/0/status']?.oneOf).toEqual(
      expect.arrayContaining(['completed', 'failed']),
    )
    for (const run of runs)
      expect(
        run.scenarios[0]!.checks.find((c) => c.name === 'webhook deposit-received signature')?.status,
      ).toBe('passed')
  }, 240_000)

  it('single and batch withdrawals, each executed on chain with the answer', async () => {
    const { text } = await recordAndReplay('withdrawals', (r) => withdrawalSession(sim, r, 4), {
      againstFresh: true,
    })
    const steps = (parse(text) as { steps: YamlStep[] }).steps
    expect(steps.filter((s) => s.chain)).toHaveLength(2)
  }, 240_000)

  it('a session that enables a fault and disables it again: header and steps agree', async () => {
    const { text } = await recordAndReplay('fault', (r) => faultSession(sim, r, 5), { againstFresh: true })
    expect(text).toMatch(
      /# Faults the session switched itself .*enables intents\.accept-duplicate.*disables intents\.accept-duplicate/,
    )
    expect(text).not.toMatch(/Faults enabled on the target when recording began/)
    expect(sim.faults.list()).toEqual([])
  }, 240_000)
})
