// A local npm registry for the package tests: Verdaccio (from npm), our package published to it
// for real, every other package proxied from the registry npm itself uses.
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { root } from './consumer'

/** A running registry: its URL, a token that may publish, and how to stop it. */
export type LocalRegistry = { url: string; token: string; stop: () => Promise<void> }

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/**
 * Starts Verdaccio with its storage in `dir`; `intent-devnet` is served from there only (never
 * proxied), everything else is proxied to `upstream`.
 *
 * @example
 * const registry = await startRegistry(work, 'https://registry.npmjs.org/')
 */
export async function startRegistry(dir: string, upstream: string): Promise<LocalRegistry> {
  const port = await freePort()
  const config = join(dir, 'verdaccio.yaml')
  writeFileSync(
    config,
    [
      `storage: ${join(dir, 'storage')}`,
      'auth:',
      `  htpasswd: { file: ${join(dir, 'htpasswd')}, max_users: 10 }`,
      `uplinks: { upstream: { url: ${upstream}, timeout: 60s } }`,
      'packages:',
      "  'intent-devnet': { access: $all, publish: $authenticated }",
      "  '**': { access: $all, publish: $authenticated, proxy: upstream }",
      'log: { type: stdout, format: pretty, level: warn }',
    ].join('\n'),
  )
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules/verdaccio/bin/verdaccio'), '--config', config, '--listen', `127.0.0.1:${port}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  child.stdout.on('data', (chunk) => {
    output += chunk
  })
  child.stderr.on('data', (chunk) => {
    output += chunk
  })
  const url = `http://127.0.0.1:${port}/`
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
  }
  const deadline = Date.now() + 60_000
  for (;;) {
    const ok = await fetch(`${url}-/ping`).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) break
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop()
      throw new Error(`Verdaccio did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  // npm adduser's request: a new user, answered with a token.
  const response = await fetch(`${url}-/user/org.couchdb.user:ci`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ci', password: 'ci-password-1', type: 'user', roles: [] }),
  })
  const { token } = (await response.json()) as { token?: string }
  if (!token) {
    await stop()
    throw new Error(`Verdaccio gave no token (${response.status}):\n${output}`)
  }
  return { url, token, stop }
}

/**
 * An .npmrc that points npm at the registry with its token (the only change a recipe gets).
 *
 * @example
 * writeNpmrc(project, registry)
 */
export function writeNpmrc(dir: string, registry: LocalRegistry): void {
  const host = registry.url.replace(/^http:/, '')
  writeFileSync(join(dir, '.npmrc'), `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`)
}
