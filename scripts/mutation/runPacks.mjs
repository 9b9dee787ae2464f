// One Stryker command run: every pack against a simulator started from these (mutated) sources,
// through the conformance CLI (no --target: it starts its own local simulator in-process, so the
// mutant Stryker activates through __STRYKER_ACTIVE_MUTANT__ is the one the packs judge).
// Exit 0: every check passed (the mutant survived); 1: a check failed (killed).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const out = mkdtempSync(join(tmpdir(), 'mutation-packs-'))
const result = spawnSync(
  process.execPath,
  // --strict: SHOULD checks count too; scenarios get 30 s (a stalled intent fails, not hangs).
  ['bin/intent-devnet.js', 'conformance', '--strict', '--timeout', '30', '--reporter', 'json', '--out', out],
  { stdio: ['ignore', 'ignore', 'inherit'], env: process.env },
)
rmSync(out, { recursive: true, force: true })
process.exit(result.status ?? 1)
