import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../test/support/runCli'
import { startLocalTargetProcess } from './runner/startLocalTargetProcess'

const bin = join(import.meta.dirname, '..', 'bin', 'intent-devnet.js')

/** A request to the target with a key, its status. */
const statusWith = async (target: string, apiKey: string) =>
  (await fetch(`${target}/_devnet/faults`, { headers: { 'x-api-key': apiKey } })).status

describe('intent-devnet local-target (the simulator of a run without --target, in a child process)', () => {
  test('serves the run key and its extra keys, and is gone once stopped', async () => {
    const local = await startLocalTargetProcess({ bin, apiKey: 'run-key', extraKeys: 2 })
    try {
      expect(local.target).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(local.apiKey).toBe('run-key')
      expect(local.apiKeys).toHaveLength(2)
      for (const key of [local.apiKey, ...local.apiKeys])
        expect(await statusWith(local.target, key)).toBe(200)
      expect(await statusWith(local.target, 'another-key')).toBe(401)
    } finally {
      await local.stop()
    }
    await expect(fetch(`${local.target}/health`)).rejects.toThrow()
  }, 120_000)

  test('stops by itself when its stdin ends (the parent is gone, however it ended)', async () => {
    const child = spawn(process.execPath, [bin, 'local-target'], { stdio: ['pipe', 'pipe', 'pipe'] })
    const line = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (chunk) => {
        out += chunk
        if (out.includes('\n')) resolve(out.split('\n')[0]!)
      })
      child.once('exit', (code) => reject(new Error(`exited ${code} before serving`)))
    })
    const { target } = JSON.parse(line) as { target: string }
    expect((await fetch(`${target}/health`)).status).toBe(200)
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    child.stdin.end()
    expect(await exited).toBe(0)
    await expect(fetch(`${target}/health`)).rejects.toThrow()
  }, 120_000)

  test('options it does not know are refused, naming the valid ones', async () => {
    const run = await runCli(['local-target', '--options-json', '{"apiKey":"k","port":4000}'])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/unknown option port; valid: apiKey, strictVersion, chainIds, extraKeys/)
  }, 60_000)

  test('is not listed by --help', async () => {
    const run = await runCli(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/conformance/)
    expect(run.stdout).not.toMatch(/local-target/)
  }, 60_000)
})
