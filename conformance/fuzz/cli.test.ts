import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCli } from '../../test/support/runCli'
import { type LocalTarget, startLocalTarget } from '../runner/startLocalTarget'
import { progressLine } from './cli'

/**
 * `intent-devnet fuzz` as a user runs it (the real CLI, spawned): exit 0 with no finding, 1
 * with findings, 2 on a usage error, and the report states the budget and what was sent.
 */

let local: LocalTarget
let out: string

beforeAll(async () => {
  local = await startLocalTarget()
  out = await mkdtemp(join(tmpdir(), 'fuzz-cli-'))
}, 60_000)
afterAll(() => local?.stop())

const fuzz = (args: string[]) => runCli(['fuzz', ...args])

const target = () => ['--target', local.target, '--api-key', local.apiKey]

describe('intent-devnet fuzz (spawned)', () => {
  test.each([
    [['--shard', '0/2'], /--shard must be I\/N/],
    [['--shard', '3/2'], /--shard must be I\/N/],
    [['--shard', '1/0'], /--shard must be I\/N/],
    [['--shard', 'two'], /--shard must be I\/N/],
    [['--budget', '0'], /--budget must be a positive integer/],
    [['--budget', '10', '--duration', '5'], /--budget or --duration, not both/],
    [['--seed', '1.5'], /--seed must be an integer/],
    [['--target', 'http://127.0.0.1:9'], /--api-key is required with --target/],
  ])(
    '%j is a usage error: exit 2, nothing sent',
    async (args, message) => {
      const run = await fuzz([...args, '--out', join(out, 'usage')])
      expect(run.stderr).toMatch(message)
      expect(run.code).toBe(2)
      expect(await readdir(out)).not.toContain('usage')
    },
    120_000,
  )

  test('no finding: exit 0, the report states the budget and every request counted', async () => {
    const dir = join(out, 'clean')
    const run = await fuzz([...target(), '--seed', '3', '--budget', '300', '--out', dir])
    expect(run.stderr).not.toMatch(/error/i)
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^fuzz seed 3: \d+ requests of a budget of 300 \(/m)
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'))
    expect(report.requests.total).toBeLessThanOrEqual(300)
  }, 180_000)

  test('without --target: a simulator of its own (a child process), gone when the run ends', async () => {
    const dir = join(out, 'own')
    const run = await fuzz(['--seed', '4', '--budget', '150', '--out', dir])
    expect(run.code).toBe(0)
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'))
    expect(report.target).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(report.requests.total).toBeLessThanOrEqual(150)
    // Its simulator is gone with it.
    await expect(fetch(`${report.target}/health`)).rejects.toThrow()
  }, 180_000)

  test('a finding: exit 1, its scenario written and the replay command printed', async () => {
    const set = async (enable: string[]) => {
      const response = await fetch(`${local.target}/_devnet/faults`, {
        method: 'POST',
        headers: { 'x-api-key': local.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ clear: true, enable }),
      })
      expect(response.status).toBe(200)
    }
    const dir = join(out, 'fault')
    await set(['input.5xx-on-wrong-types'])
    try {
      const run = await fuzz([...target(), '--seed', '3', '--budget', '600', '--out', dir])
      expect(run.code).toBe(1)
      expect(run.stdout).toMatch(/✗ no-5xx on /)
      expect(run.stderr).toContain(`intent-devnet conformance --scenarios ${dir}/findings`)
      expect((await readdir(join(dir, 'findings'))).some((f) => f.startsWith('no-5xx-'))).toBe(true)
    } finally {
      await set([])
    }
  }, 180_000)
})

test('the progress line shows the phase, requests, findings and rate', () => {
  expect(progressLine({ phase: 'stateless', requests: 1200, findings: 1, perSecond: 812.4 })).toBe(
    'fuzz stateless: 1200 requests, 1 finding, 812 req/s',
  )
})
