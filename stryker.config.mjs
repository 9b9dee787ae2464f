// StrykerJS over the simulator's domain and HTTP code, judged by the conformance packs: each
// mutant's run is `intent-devnet conformance --strict` against a simulator started from the
// mutated sources (scripts/mutation/runPacks.mjs). `npm run mutation` (scripts/mutation/run.ts)
// runs it, whole or on a seeded sample of lines, and sums the score per folder (docs/conformance.md).

/** The folders mutated: the simulator's domain and its HTTP layer. */
export const MUTATED_FOLDERS = [
  'quoting',
  'signing',
  'settlement',
  'withdrawals',
  'http',
  'prices',
  'deposits',
  'intents',
  'eip712',
]

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'command',
  commandRunner: { command: 'node scripts/mutation/runPacks.mjs' },
  mutate: [
    ...MUTATED_FOLDERS.map((folder) => `simulator/${folder}/**/*.ts`),
    '!simulator/**/*.test.ts',
    '!simulator/**/testing/**',
    '!simulator/**/*.d.ts',
  ],
  // Every mutant runs every pack (a command runner has no per-test coverage).
  coverageAnalysis: 'off',
  // Types are not checked: tsx strips them, and a mutant that breaks them still runs.
  checkers: [],
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['reports', '.state', '.tmp', '.stryker-tmp', 'test/browser', '.devnet-manifest.json'],
  // Two cores shared: one mutant at a time (each run starts its own Anvils and simulator).
  concurrency: 1,
  // A mutant that stalls a scenario (a poll that never completes) is a timeout, counted as killed.
  timeoutMS: 20_000,
  timeoutFactor: 1.5,
  logLevel: 'info',
}
