import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'simulator/**/*.test.ts',
      'conformance/**/*.test.ts',
      'contracts/**/*.test.ts',
      'scripts/**/*.test.ts',
      'test/**/*.test.ts',
      'integrations/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file starts its own Anvil processes on port 0; two cores, so keep the pool small.
    maxWorkers: 2,
  },
})
