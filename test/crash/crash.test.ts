import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  anvilsLeftAfter,
  type DevnetProcess,
  interrupt,
  killHard,
  type MadeDeposit,
  makeDeposit,
  type SubmittedIntent,
  startDevnetProcess,
  submitIntent,
  verify,
} from './crashHarness'

/**
 * Real processes, real signals: `intent-devnet up --state-dir` is killed with SIGKILL at points
 * before, during and after settlement and around a deposit payout, restarted, and every intent
 * and deposit is checked against the chains: paid exactly once or not accepted, nothing on the
 * service's side that the chains do not hold, no Anvil left behind.
 */
const dirs: string[] = []
const running: DevnetProcess[] = []
afterAll(async () => {
  for (const devnet of running) devnet.child.kill('SIGKILL')
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function start(dir: string) {
  const devnet = await startDevnetProcess(dir)
  running.push(devnet)
  return devnet
}

describe('kill -9 of the service, then a restart on the same state dir', () => {
  it('loses nothing accepted and pays every intent and deposit exactly once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'crash-'))
    dirs.push(dir)
    const intents: SubmittedIntent[] = []
    const deposits: MadeDeposit[] = []

    // 1. Killed right after a submit was accepted: the intent has not been filled yet.
    let devnet = await start(dir)
    intents.push(await submitIntent(devnet, 1))
    await killHard(devnet)
    expect(await anvilsLeftAfter(dir)).toEqual([])

    // 2. Killed while intents settle and a deposit is being paid out.
    devnet = await start(dir)
    const batch = Promise.all([submitIntent(devnet, 2), submitIntent(devnet, 3)])
    deposits.push(await makeDeposit(devnet, 4))
    intents.push(...(await batch))
    await new Promise((r) => setTimeout(r, 150))
    await killHard(devnet)
    expect(await anvilsLeftAfter(dir)).toEqual([])

    // 3. Killed after everything settled: the chains must still hold every payment.
    devnet = await start(dir)
    // The chains came back from the dumps their Anvils wrote when the service died.
    expect(devnet.output()).toMatch(/did not stop cleanly/)
    expect(devnet.output()).toMatch(/state loaded \(exit-dump\)/)
    expect(await verify(devnet, intents, deposits)).toEqual([])
    intents.push(await submitIntent(devnet, 5))
    deposits.push(await makeDeposit(devnet, 6))
    expect(await verify(devnet, intents, deposits)).toEqual([])
    await killHard(devnet)
    expect(await anvilsLeftAfter(dir)).toEqual([])

    // 4. After the last restart every intent and deposit is still paid once; new deposits are seen.
    devnet = await start(dir)
    deposits.push(await makeDeposit(devnet, 7))
    intents.push(await submitIntent(devnet, 8))
    expect(await verify(devnet, intents, deposits)).toEqual([])
    expect(intents.every((intent) => intent.accepted)).toBe(true)

    // Ctrl-C (SIGINT to the process group) saves state before anything stops, leaves no process.
    await interrupt(devnet)
    expect(await anvilsLeftAfter(dir)).toEqual([])
    devnet = await start(dir)
    expect(devnet.output()).not.toMatch(/did not stop cleanly/)
    expect(await verify(devnet, intents, deposits)).toEqual([])
    devnet.child.kill('SIGTERM')
    await devnet.exited
    expect(await anvilsLeftAfter(dir)).toEqual([])
  }, 240_000)
})
