import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { replayPassed, replayRecording } from '../../conformance/record/replayRecording'
import { startRecorder } from '../../conformance/record/startRecorder'
import { writeRecording } from '../../conformance/record/writeRecording'
import { renderConsole } from '../../conformance/reporters'
import { startAnvil } from '../../simulator/devnet/anvil'
import { type Simulator, startSimulator } from '../../simulator/startSimulator'
import { blancCrossChain, withdrawalSession } from './sessions'

/**
 * A recording replays the same however long after it was made: the replay's devnet starts at the
 * instant the recording began (its chains' next block and the service's clock), not at the wall
 * clock plus the recorded offset.
 *
 * "Replayed N days later" without mocking any clock: the session is recorded on a real devnet
 * whose chains and clock live N days in the past (Anvil's genesis then, the devnet's clock started
 * there), so the recording began N days before the wall clock of its replay, a moment later:
 * exactly a recording made N days ago. Its withdrawals' `allocatorData` expire ten minutes after
 * they were answered, recorded time, and the replay executes them from the recorded calldata.
 */
const CHAINS = [10, 8453]

describe.each([1, 400])('a recording replayed %i days after it was made', (DAYS) => {
  let sim: Simulator
  let dir: string
  let recordedAt: number

  beforeAll(async () => {
    recordedAt = Math.floor(Date.now() / 1000) - DAYS * 86_400
    sim = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      chainIds: CHAINS,
      apiKey: 'later-key-0123',
      clockAt: recordedAt,
      // The chains begin a minute before that instant (Anvil's genesis timestamp).
      launchAnvil: (p) =>
        startAnvil({ ...p, args: [...(p.args ?? []), '--timestamp', String(recordedAt - 60)] }),
    })
    dir = await mkdtemp(join(tmpdir(), 'record-later-'))
  }, 120_000)

  afterAll(async () => {
    await sim?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it(`a withdrawal and a quote recorded ${DAYS} days ago replay as recorded, three times`, async () => {
    // The devnet really is N days in the past: its clock and its chains' head.
    const head = await sim.devnet.chain(8453).publicClient.getBlock({ blockTag: 'latest' })
    const wall = Math.floor(Date.now() / 1000)
    expect(wall - sim.devnet.now()).toBeGreaterThanOrEqual(DAYS * 86_400 - 60)
    expect(wall - Number(head.timestamp)).toBeGreaterThanOrEqual(DAYS * 86_400 - 60)

    const recorder = await startRecorder({ target: sim.baseUrl, apiKey: sim.apiKey, port: 0 })
    try {
      await withdrawalSession(sim, recorder, 4)
      await blancCrossChain(sim, recorder, 2)
    } finally {
      await recorder.stop()
    }
    const file = join(dir, 'later.yaml')
    await writeRecording(recorder.recording(), file)
    const steps = (parse(await readFile(file, 'utf8')) as { steps: { chain?: unknown }[] }).steps
    expect(steps.filter((s) => s.chain)).toHaveLength(2)
    // The state folder holds the instant the recording began, on the target's clock.
    const service = JSON.parse(await readFile(`${file}.state/service.json`, 'utf8')) as { clockAt: number }
    expect(Math.abs(service.clockAt - recordedAt)).toBeLessThan(60)
    expect(Math.floor(Date.now() / 1000) - service.clockAt).toBeGreaterThan(DAYS * 86_400 - 60)

    const runs = await Promise.all(Array.from({ length: 3 }, () => replayRecording({ file })))
    for (const run of runs) expect(replayPassed(run), renderConsole(run)).toBe(true)

    // The same recording as a recorder without the recorded instant wrote it (the clock as an
    // offset to the wall clock: 0 on a devnet whose clock was the wall clock N days ago) replays
    // at today's time: the recorded withdrawal has expired on chain. That is what the instant fixes.
    const old = join(dir, 'later-old.yaml')
    await cp(file, old)
    await cp(`${file}.state`, `${old}.state`, { recursive: true })
    const { clockAt: _, ...withoutInstant } = service
    await writeFile(`${old}.state/service.json`, JSON.stringify(withoutInstant))
    const meta = JSON.parse(await readFile(`${old}.state/devnet.json`, 'utf8')) as { offsetSeconds: number }
    await writeFile(`${old}.state/devnet.json`, JSON.stringify({ ...meta, offsetSeconds: 0 }))
    const stale = await replayRecording({ file: old })
    expect(replayPassed(stale)).toBe(false)
    // The runner reports a chain step that reverts as the scenario's setup failing; the revert is
    // the Compact's `Expired(uint256)` (0xf80dbaea) of the single withdrawal.
    const scenario = stale.scenarios[0]!
    expect(scenario.status).not.toBe('passed')
    expect(scenario.reason, renderConsole(stale)).toMatch(
      /account 4 sends a transaction .* on chain 8453.*0xf80dbaea/,
    )
  }, 360_000)
})
