import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { holdTargetAlone, shareAfterAlone, shareTarget } from './keyLock'

describe('the target lock of runs side by side', () => {
  test('scenarios share a target; one that runs alone waits for them, and they wait for it', async () => {
    const target = `http://127.0.0.1:1/${randomBytes(6).toString('hex')}`
    const events: string[] = []
    const first = await shareTarget(target)
    const second = await shareTarget(target)
    const alone = holdTargetAlone(target).then((release) => {
      events.push('alone')
      return release
    })
    await sleep(150)
    expect(events).toEqual([])
    await first()
    await sleep(100)
    expect(events).toEqual([])
    await second()
    const releaseAlone = await alone
    expect(events).toEqual(['alone'])
    const later = shareTarget(target).then((release) => {
      events.push('shared')
      return release
    })
    await sleep(150)
    expect(events).toEqual(['alone'])
    await releaseAlone()
    await (await later)()
    expect(events).toEqual(['alone', 'shared'])
  })

  test('a hold that becomes a share: scenarios that share start at once, one that runs alone waits for its end', async () => {
    const target = `http://127.0.0.1:1/${randomBytes(6).toString('hex')}`
    const events: string[] = []
    const rest = await shareAfterAlone(target, await holdTargetAlone(target))
    const beside = await shareTarget(target)
    const next = holdTargetAlone(target).then((release) => {
      events.push('next alone')
      return release
    })
    await beside()
    await sleep(150)
    expect(events).toEqual([])
    await rest()
    await (await next)()
    expect(events).toEqual(['next alone'])
  })

  test('within one process a waiter goes on when the lock is let go, not at its next look', async () => {
    // Each round: a scenario shares the target, one that runs alone waits for it (its look saw
    // the share), the share ends. Woken by the release, a round takes the 5 ms pause and a few
    // file operations; looking again every 25 ms (POLL_MS, as before), at least 25 ms more.
    const target = `http://127.0.0.1:1/${randomBytes(6).toString('hex')}`
    const rounds = 40
    const started = performance.now()
    for (let round = 0; round < rounds; round++) {
      const share = await shareTarget(target)
      const alone = holdTargetAlone(target)
      await sleep(5)
      await share()
      await (await alone)()
    }
    const perRound = (performance.now() - started) / rounds
    expect(perRound).toBeLessThan(20)
  })
})
