import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { runFuzz } from '../../conformance/fuzz/runFuzz'
import { runConformance } from '../../conformance/runner/runConformance'
import { type LocalTarget, startLocalTarget } from '../../conformance/runner/startLocalTarget'
import { chainsFileOf } from '../conformance/chainsFileOf'
import {
  type IndependentTarget,
  startIndependentTarget,
} from '../conformance/independentTarget/startIndependentTarget'

/**
 * The fuzzer against the independent implementation (blanc only, at the public paths, shares no
 * code with the simulator): it finds the documented departure (11 operations on a chain
 * accepted) and what no scenario of the packs names, and each written scenario fails against it.
 */

let chains: LocalTarget
let target: IndependentTarget
let chainsFile: string
const apiKey = 'independent-key'

beforeAll(async () => {
  chains = await startLocalTarget()
  const file = (await chainsFileOf(chains.target, chains.apiKey)) as {
    chains: { chainId: number; rpcUrl: string }[]
    accounts: `0x${string}`[]
  }
  target = await startIndependentTarget({
    apiKey,
    chains: file.chains,
    solverKey: file.accounts.at(-1)!,
    quoteTtlSeconds: 4,
  })
  chainsFile = join(await mkdtemp(join(tmpdir(), 'fuzz-independent-')), 'chains.json')
  await writeFile(chainsFile, JSON.stringify(file))
}, 60_000)
afterAll(async () => {
  await target?.close()
  await chains?.stop()
})

/** What the fuzzer may find there: each a real departure of that implementation from the spec. */
const KNOWN = {
  // Its documented departure: it enforces 12 operations per chain, not 10 (DEPARTURES).
  'limit-over quote': 'accepts 11 preClaimExecutions operations on a chain',
  // Named by no scenario of the packs: it does not check `account.accountType`'s type.
  'invalid-input quote': 'accepts a field of the wrong type',
  // Named by no scenario of the packs: it fills to the account, ignoring the request's `recipient`.
  'settled-exactly intentStatus': 'delivers to the account instead of `recipient`',
}

test('an independent implementation: its departures found, each written scenario fails against it', async () => {
  const out = await mkdtemp(join(tmpdir(), 'fuzz-independent-out-'))
  const run = await runFuzz({
    target: target.url,
    apiKey,
    seed: 1,
    budget: 2000,
    statefulRuns: 4,
    profile: 'public',
    version: 'blanc',
    chainsFile,
    out,
  })
  const keys = run.findings.map((f) => f.key)
  expect(keys).toContain('limit-over quote')
  expect(keys.filter((key) => !(key in KNOWN))).toEqual([])
  // Routes outside its slice are left out, not reported as refusing valid input.
  expect(run.report.routesLeftOut.map((r) => r.route)).toEqual(
    expect.arrayContaining(['withdraw', 'depositSetup']),
  )

  const replay = await runConformance({
    target: target.url,
    apiKey,
    scenariosDir: join(out, 'findings'),
    profile: 'public',
    version: 'blanc',
    chainsFile,
  })
  expect(replay.scenarios).toHaveLength(run.findings.length)
  expect(replay.scenarios.map((s) => s.status)).toEqual(run.findings.map(() => 'failed'))
}, 120_000)
