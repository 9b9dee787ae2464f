import { relative } from 'node:path'
import { configDefaults, defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

// Files that run against the devnets the 'shared-devnet' project's global setup starts
// (integrations/vitest.ts, as integrators use it) instead of starting their own simulator.
/**
 * Files that measure their own process (its heap, its event loop): they run in a fresh module
 * graph each ('isolated'), while the other unit files share their worker's modules (isolate:
 * false: each worker imports viem, zod, Fastify and our sources once instead of once per file,
 * which was ~60 s of the suite's import time).
 */
const isolatedFiles = ['simulator/util/idleCollector.test.ts']

const sharedDevnetFiles = [
  'test/e2e/simulator.e2e.test.ts',
  'test/e2e/sdkCalls.e2e.test.ts',
  'test/e2e/settlement.e2e.test.ts',
  'test/support/sharedDevnet.test.ts',
]

/**
 * Longest files first across both projects, as vitest orders one project's files: its own
 * sequencer puts every file of one project before the other's, so the unit project's long files
 * would wait behind the shared project's. Unknown files first; ties keep vitest's order.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const duration = (spec: TestSpecification) => {
      const path = relative(this.ctx.config.root, spec.moduleId)
      // Results from before the projects were keyed without a project name.
      const cached =
        this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`) ??
        this.ctx.cache.getFileTestResults(`:${path}`)
      return cached?.duration ?? Number.POSITIVE_INFINITY
    }
    return sorted.sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        duration(b) - duration(a) ||
        0,
    )
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    // Every answer a service marks trusted is still checked against its route's schema, byte for
    // byte, in every test and every process a test starts (simulator/http/trustedResponse.ts).
    env: { INTENT_DEVNET_VERIFY_TRUSTED_RESPONSES: '1' },
    hookTimeout: 120_000,
    // Each file starts its own Anvil processes on port 0; two cores, so keep the pool small.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          isolate: false,
          include: [
            'spec/**/*.test.ts',
            'lib/**/*.test.ts',
            'cli/**/*.test.ts',
            'simulator/**/*.test.ts',
            'conformance/**/*.test.ts',
            'contracts/**/*.test.ts',
            'scripts/**/*.test.ts',
            'test/**/*.test.ts',
            'integrations/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...sharedDevnetFiles, ...isolatedFiles],
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: isolatedFiles, isolate: true },
      },
      {
        extends: true,
        test: {
          name: 'shared-devnet',
          include: sharedDevnetFiles,
          // Started only when a selected file belongs to this project: one simulator per worker
          // (perWorker), so these files run beside the unit files, each alone on its worker's
          // devnet, isolating with snapshot/revert. (fileParallelism: false would run them one by
          // one after every other file: vitest 4 puts such a project in a group of its own.)
          globalSetup: ['./integrations/vitest.ts'],
          provide: { intentDevnetOptions: { chainIds: [10, 8453, 42161], perWorker: true } },
        },
      },
    ],
  },
})
