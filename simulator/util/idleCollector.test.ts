import { describe, expect, it } from 'vitest'
import { startIdleCollector } from './idleCollector'

describe('startIdleCollector', () => {
  it('collects the garbage of a burst once the process is idle', async () => {
    const collector = startIdleCollector({ intervalMs: 200, thresholdBytes: 8 * 1024 * 1024, idleBelow: 0.5 })
    let garbage: unknown[] | undefined = Array.from({ length: 400_000 }, (_, i) => ({ i, s: `value ${i}` }))
    const before = process.memoryUsage().heapUsed
    garbage = undefined
    try {
      const deadline = Date.now() + 5_000
      while (process.memoryUsage().heapUsed > before - 8 * 1024 * 1024 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100))
      expect(garbage).toBeUndefined()
      expect(process.memoryUsage().heapUsed).toBeLessThan(before - 8 * 1024 * 1024)
    } finally {
      collector.stop()
    }
  })
})
