/**
 * Bench: how long a replay takes beside the session it replays. Each session people record
 * (test/record/sessions.ts: blanc cross-chain, alps, the public SDK, a deposit with its webhook,
 * withdrawals, a fault switched on and off) is recorded through the proxy against one simulator,
 * timed (its wall time as the client ran it), then replayed three times from its recorded state
 * (`replayRecording`: a simulator started from `FILE.state/`, the scenario run, the simulator
 * stopped), each timed whole. The baseline, measured in the same run: the session's own wall time
 * plus a devnet start (a simulator on the same chains started and stopped, median of three).
 * Goal: a replay takes at most 2x its baseline.
 *
 *   npx tsx scripts/bench/replay.ts
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { replayPassed, replayRecording } from '../../conformance/record/replayRecording'
import { type Recorder, startRecorder } from '../../conformance/record/startRecorder'
import { writeRecording } from '../../conformance/record/writeRecording'
import { startWebhookReceiver } from '../../conformance/runner/webhookReceiver'
import { startSimulator } from '../../simulator/index'
import {
  alpsSession,
  blancCrossChain,
  depositSession,
  faultSession,
  sdkSession,
  withdrawalSession,
} from '../../test/record/sessions'

const CHAINS = [10, 8453]
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function devnetStart(): Promise<number> {
  const started = performance.now()
  const sim = await startSimulator({ port: 0, host: '127.0.0.1', chainIds: CHAINS })
  const ms = performance.now() - started
  await sim.close()
  return ms
}

const sim = await startSimulator({ port: 0, host: '127.0.0.1', chainIds: CHAINS, apiKey: 'bench-replay-key' })
const receiver = await startWebhookReceiver()
const dir = await mkdtemp(join(tmpdir(), 'bench-replay-'))
const starts: number[] = []
for (let i = 0; i < 3; i++) starts.push(await devnetStart())
const start = median(starts)
const fresh = privateKeyToAccount(`0x${'6e'.repeat(32)}` as Hex).address
const sessions: [string, (recorder: Recorder) => Promise<void>][] = [
  ['blanc cross-chain, no access list', (r) => blancCrossChain(sim, r, 2)],
  ['alps', (r) => alpsSession(sim, r, 3)],
  ['public SDK, EOA transfer + destination call', (r) => sdkSession(sim, r, 6)],
  ['deposit with its webhook', (r) => depositSession(sim, r, receiver, fresh)],
  ['single + batch withdrawals', (r) => withdrawalSession(sim, r, 4)],
  ['fault enabled and disabled', (r) => faultSession(sim, r, 5)],
]
const rows: string[] = []
try {
  for (const [name, session] of sessions) {
    const recorder = await startRecorder({ target: sim.baseUrl, apiKey: sim.apiKey, port: 0 })
    const began = performance.now()
    await session(recorder)
    const wall = performance.now() - began
    const file = join(dir, `${name.replace(/\W+/g, '-')}.yaml`)
    await writeRecording(await recorder.stop(), file)
    const replays: number[] = []
    for (let i = 0; i < 3; i++) {
      const t = performance.now()
      const run = await replayRecording({ file })
      replays.push(performance.now() - t)
      if (!replayPassed(run)) throw new Error(`the replay of ${name} failed`)
    }
    const baseline = wall + start
    const replay = median(replays)
    rows.push(
      `| ${name} | ${(wall / 1000).toFixed(2)} | ${(baseline / 1000).toFixed(2)} | ${(replay / 1000).toFixed(2)} | ${(replay / baseline).toFixed(2)}x |`,
    )
    console.error(
      `${name}: session ${wall.toFixed(0)} ms, replays ${replays.map((r) => r.toFixed(0)).join(', ')} ms`,
    )
  }
} finally {
  await receiver.close()
  await sim.close()
  await rm(dir, { recursive: true, force: true })
}
console.log(`devnet start (chains ${CHAINS.join(', ')}, median of 3): ${(start / 1000).toFixed(2)} s\n`)
console.log(
  '| session | recorded wall s | baseline s (wall + devnet start) | replay s (median of 3) | replay / baseline |',
)
console.log('| --- | ---: | ---: | ---: | ---: |')
for (const row of rows) console.log(row)
