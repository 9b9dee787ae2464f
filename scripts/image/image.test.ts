import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../../simulator/devnet/anvil'
import { DevnetManifest } from '../../spec'
import { isAlive } from '../../test/support/processes'
import { ensureImage } from './buildImage'
import { hasDockerEngine } from './dockerEngine'

// The image is built once (and kept by tag while its inputs are unchanged): CI builds it in the
// first file that needs it. Needs a Docker engine (`.ci/run` starts one); skipped without one.
const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim()

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

async function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const ok = await fetch(`${url}/health`).then(
      (response) => response.status === 200,
      () => false,
    )
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url}/health never answered 200`)
}

/** Host process ids of a container's processes, with their command lines. */
const containerProcesses = (name: string) =>
  docker('top', name, '-eo', 'pid,args')
    .split('\n')
    .slice(1)
    .map((line) => {
      const [pid, ...args] = line.trim().split(/\s+/)
      return { pid: Number(pid), args: args.join(' ') }
    })

const bin = join(import.meta.dirname, '../../bin/intent-devnet.js')

/** A command's stdout, once it exits 0. */
const output = (command: string, args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile(command, args, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  )

/** Milliseconds of an engine timestamp (RFC 3339 with nanoseconds). */
const engineTime = (stamp: string) => Date.parse(stamp.replace(/(\.\d{3})\d*/, '$1'))

// Needs a Docker engine: skipped on a machine with nothing but npm; `.ci/run` starts one and sets
// INTENT_DEVNET_REQUIRE_DOCKER, under which a missing engine fails instead (hasDockerEngine).
describe.skipIf(!hasDockerEngine())('the intent-devnet image', () => {
  let tag: string
  let forkSource: AnvilInstance
  const stateDir = mkdtempSync(join(tmpdir(), 'image-state-'))
  const name = `intent-devnet-test-${process.pid}`

  beforeAll(async () => {
    ;[tag, forkSource] = await Promise.all([ensureImage(), startAnvil({ chainId: 8453 })])
  }, 180_000)

  afterAll(async () => {
    spawnSync('docker', ['rm', '-f', name], { stdio: 'ignore' })
    await forkSource?.stop()
    rmSync(stateDir, { recursive: true, force: true })
  })

  // The two short checks run side by side (each `docker run` copies the image's files first under
  // the vfs storage driver); the long one, which times the stop, after them alone.
  // Help text is wrapped to the terminal's width, so it is compared word by word.
  it.concurrent('lists the same commands and flags as the CLI from source', async ({ expect }) => {
    const words = (text: string) => text.replace(/\s+/g, ' ').trim()
    const cases = [['--help'], ['up', '--help'], ['conformance', '--help']]
    const [image, source] = await Promise.all([
      Promise.all(cases.map((args) => output('docker', ['run', '--rm', tag, ...args]))),
      Promise.all(cases.map((args) => output(process.execPath, [bin, ...args]))),
    ])
    expect(image.map(words)).toEqual(source.map(words))
  })

  it.concurrent('refuses a bad flag with the CLI message and a non-zero exit', async ({ expect }) => {
    const result = await new Promise<{ status: number | null; stderr: string }>((resolve) =>
      execFile('docker', ['run', '--rm', tag, 'up', '--swap-fee-bps', '10000'], (error, _stdout, stderr) =>
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }),
      ),
    )
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('--swap-fee-bps must be at most 9999')
  })

  it('serves the devnet with every up flag, runs a pack against itself, and stops on SIGTERM in under a second', async () => {
    const port = await freePort()
    const baseUrl = `http://127.0.0.1:${port}`
    docker(
      'run',
      '-d',
      '--name',
      name,
      '--network',
      'host',
      '-v',
      `${stateDir}:/state`,
      tag,
      'up',
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--api-key',
      'image-key',
      '--strict-version',
      '--chains',
      '10,8453',
      '--fork',
      `8453=${forkSource.rpcUrl}`,
      '--state-dir',
      '/state/devnet',
      '--quote-ttl',
      '42',
      '--swap-fee-bps',
      '25',
      '--manifest',
      '/state/manifest.json',
    )

    await waitForHealth(baseUrl)
    const health = (await (await fetch(`${baseUrl}/health`)).json()) as {
      chains: { chainId: number; up: boolean }[]
    }
    expect(health.chains).toEqual([
      { chainId: 10, up: true },
      { chainId: 8453, up: true },
    ])
    expect((await fetch(`${baseUrl}/_devnet/manifest`)).status).toBe(401)
    const manifest = DevnetManifest.parse(
      await (await fetch(`${baseUrl}/_devnet/manifest`, { headers: { 'x-api-key': 'image-key' } })).json(),
    )
    expect(manifest.service).toMatchObject({ apiKey: 'image-key', strictVersion: true, quoteTtlSeconds: 42 })
    expect(manifest.chains.map((chain) => [chain.chainId, chain.forkUrl])).toEqual([
      [10, undefined],
      [8453, forkSource.rpcUrl],
    ])
    // The RPC URLs in the manifest answer from the host (host network).
    const chainId = await fetch(manifest.chains[0]!.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    }).then((response) => response.json() as Promise<{ result: string }>)
    expect(chainId.result).toBe('0xa')
    // --strict-version: no x-api-version is a 400.
    const unversioned = await fetch(`${baseUrl}/intents/route`, {
      method: 'POST',
      headers: { 'x-api-key': 'image-key', 'content-type': 'application/json' },
      body: '{}',
    })
    expect(unversioned.status).toBe(400)
    // --manifest wrote the file where the volume shows it.
    expect(
      DevnetManifest.parse(JSON.parse(readFileSync(join(stateDir, 'manifest.json'), 'utf8'))).service.apiKey,
    ).toBe('image-key')
    // The OpenAPI reference (Swagger UI's assets stay in node_modules) is served.
    expect((await fetch(`${baseUrl}/docs/`)).status).toBe(200)

    // The image's own runner, with its bundled packs, judges the service in the other container.
    const reports = spawnSync(
      'docker',
      [
        'run',
        '--rm',
        '--network',
        'host',
        '-v',
        `${stateDir}:/state`,
        tag,
        'conformance',
        '--target',
        baseUrl,
        '--api-key',
        'image-key',
        '--pack',
        'authentication',
        '--reporter',
        'junit',
        '--out',
        '/state/reports',
      ],
      { encoding: 'utf8' },
    )
    expect(reports.status, `${reports.stdout}\n${reports.stderr}`).toBe(0)
    const junit = readdirSync(join(stateDir, 'reports')).find((file) => file.endsWith('.xml'))
    expect(readFileSync(join(stateDir, 'reports', junit!), 'utf8')).toMatch(/<testsuites[^>]*failures="0"/)

    // PID 1 is tini; the service and its Anvils are its descendants.
    const processes = containerProcesses(name)
    expect(processes[0]!.args).toMatch(/^\/sbin\/tini -- /)
    const anvils = processes.filter((p) => /anvil/.test(p.args) && !/\bsh\b/.test(p.args))
    expect(anvils.length).toBeGreaterThanOrEqual(2)

    const stopped = performance.now()
    docker('kill', '--signal', 'TERM', name)
    expect(docker('wait', name)).toBe('0')
    // From the service's 'SIGTERM: stopping' line to the container's exit, both as the engine
    // stamps them: the docker CLI's own start-up (slow on a busy machine) stays out of it.
    const signalled = docker('logs', '--timestamps', name)
      .split('\n')
      .find((line) => line.includes('SIGTERM: stopping'))
    const finished = docker('inspect', name, '--format', '{{.State.FinishedAt}}')
    const stopMs = engineTime(finished) - engineTime(signalled!.split(' ')[0]!)
    expect(stopMs).toBeLessThan(1000)
    expect(performance.now() - stopped).toBeLessThan(5000)
    for (const process of processes) expect(isAlive(process.pid), process.args).toBe(false)
    // --state-dir: the chains' state was dumped on the way out.
    expect(existsSync(join(stateDir, 'devnet'))).toBe(true)
  }, 120_000)
})
