import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { isAlive } from '../support/processes'

// `intent-devnet up` starts its Anvils from the bin, before the CLI's bundle loads, and the
// devnet adopts them (issue 18): the chains are served by exactly those processes, children of
// the service, and they die with it however it dies (kill -9 included: no orphans).
const root = join(import.meta.dirname, '../..')

/** Process ids of the `anvil` processes whose parent is `pid`. */
const anvilChildren = (pid: number) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const [, name, ppid] =
          readFileSync(`/proc/${entry}/stat`, 'utf8').match(/^\d+ \((.*)\) \S (\d+)/) ?? []
        return name === 'anvil' && Number(ppid) === pid ? [Number(entry)] : []
      } catch {
        return []
      }
    })

test.each([
  { args: [], chains: [1, 10, 8453, 42161] },
  { args: ['--chains', '10,8453', '--strict-version'], chains: [10, 8453] },
])(
  'up $args: the early Anvils serve the chains and die with a kill -9 of the service',
  async ({ args, chains }) => {
    const child = spawn(process.execPath, ['bin/intent-devnet.js', 'up', '--port', '0', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    let out = ''
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (data) => {
        out += data
        const url = out.match(/is up at (http:\/\/\S+)/)?.[1]
        if (url) resolve(url)
      })
      child.stderr!.on('data', (data) => (out += data))
      child.once('exit', () => reject(new Error(`up exited:\n${out}`)))
    })
    let anvils: number[] = []
    try {
      const manifest = (await (
        await fetch(`${baseUrl}/_devnet/manifest`, { headers: { 'x-api-key': 'devnet-key' } })
      ).json()) as {
        chains: { chainId: number; rpcUrl: string }[]
      }
      expect(manifest.chains.map((chain) => chain.chainId)).toEqual(chains)
      // One Anvil per chain, no more: none was started twice, none left unused.
      anvils = anvilChildren(child.pid!)
      expect(anvils).toHaveLength(chains.length)
      for (const chain of manifest.chains) {
        const response = await fetch(chain.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        })
        expect(Number(((await response.json()) as { result: string }).result)).toBe(chain.chainId)
      }
    } finally {
      child.kill('SIGKILL')
      await exited
    }
    const deadline = Date.now() + 10_000
    while (anvils.some(isAlive) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25))
    expect(anvils.filter(isAlive)).toEqual([])
  },
)
