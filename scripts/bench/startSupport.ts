// Helpers of scripts/bench/start.ts (process groups, ports, CPU and RSS of a process tree, the
// timed starts), kept apart so that script stays a readable sequence of measurements.
import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'

export const root = join(import.meta.dirname, '../..')
export const chainIds = [1, 10, 8453, 42161]

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })

export const healthy = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).status === 200
  } catch {
    return false
  }
}

/** Resolves when `child` (and every process of its group) has exited; SIGTERM to the group first. */
export const stopGroup = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name)
      } catch {
        resolve()
      }
    }
    const force = setTimeout(() => signal('SIGKILL'), 15_000)
    child.once('exit', () => resolve(clearTimeout(force)))
    signal('SIGTERM')
  })

export type Started = { ms: number; child: ChildProcess; port: number; cpuMs: number }

/** CPU time (user + system) so far of `pid` and every `node`/`npm` process under it (not the Anvils). */
export const cpuMs = (pid: number) =>
  [{ pid, name: 'node' }, ...descendants(pid)]
    .filter((process) => process.name !== 'anvil' && process.name !== 'sh')
    .reduce((sum, process) => {
      try {
        const fields = readFileSync(`/proc/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
        return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
      } catch {
        return sum
      }
    }, 0)

/** Spawns `command` (own process group) with `--port` appended and times it to `/health` 200. */
export async function startCommand(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  cwd = root,
): Promise<Started> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(command, [...args, '--port', String(port)], {
    cwd,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  })
  let stderr = ''
  child.stderr!.on('data', (data) => {
    stderr = `${stderr}${data}`.slice(-4000)
  })
  const url = `http://127.0.0.1:${port}/health`
  while (!(await healthy(url))) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited:\n${stderr}`)
    if (performance.now() - started > 120_000) throw new Error(`${command} ${args.join(' ')}: no /health`)
    await sleep(5)
  }
  return { ms: performance.now() - started, child, port, cpuMs: cpuMs(child.pid!) }
}

/** Four bare Anvils, spawned in parallel until each prints that it listens. */
export async function bareAnvils(): Promise<number> {
  const { anvilBinaryPath } = await import('../../simulator/devnet/anvil')
  const started = performance.now()
  const children = await Promise.all(
    chainIds.map(
      (chainId) =>
        new Promise<ChildProcess>((resolve, reject) => {
          const child = spawn(
            anvilBinaryPath(),
            ['--port', '0', '--chain-id', String(chainId), '--hardfork', 'prague'],
            { stdio: ['ignore', 'pipe', 'ignore'] },
          )
          let out = ''
          child.stdout!.on('data', (chunk) => {
            out += chunk
            if (out.includes('Listening on')) resolve(child)
          })
          child.once('exit', () => reject(new Error('anvil exited')))
        }),
    ),
  )
  const ms = performance.now() - started
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          // An Anvil SIGTERMed right after it listens has been seen to ignore it: SIGKILL after 2 s.
          const force = setTimeout(() => child.kill('SIGKILL'), 2000)
          child.once('exit', () => resolve(clearTimeout(force)))
          child.kill('SIGTERM')
        }),
    ),
  )
  return ms
}

export const rssKiB = (pid: number) => {
  try {
    return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0)
  } catch {
    return 0
  }
}
/** Every process under `pid` (children, grandchildren, …) with its command name. */
export const descendants = (pid: number): { pid: number; name: string }[] => {
  const all = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const [, name, ppid] =
          readFileSync(`/proc/${entry}/stat`, 'utf8').match(/^\d+ \((.*)\) \S (\d+)/) ?? []
        return [{ pid: Number(entry), name: name!, ppid: Number(ppid) }]
      } catch {
        return []
      }
    })
  const found: { pid: number; name: string }[] = []
  const walk = (parent: number) => {
    for (const process of all.filter((entry) => entry.ppid === parent)) {
      found.push(process)
      walk(process.pid)
    }
  }
  walk(pid)
  return found
}
