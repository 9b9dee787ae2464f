import { DevnetError } from '../errors'
import { processName, readProcesses } from '../stateDir'

/**
 * Before a devnet loads a state dir: when the devnet that last used it did not stop cleanly, its
 * Anvils may still be writing their exit dumps (they got the parent-death signal): wait for them
 * (then kill what is left). A devnet whose service and Anvils still run owns the dir: refuse.
 * True when the previous devnet did not stop cleanly.
 *
 * @example
 * const unclean = await releasePreviousDevnet('.devnet', console.log)
 */
export async function releasePreviousDevnet(stateDir: string, log: (line: string) => void): Promise<boolean> {
  const previous = readProcesses(stateDir)
  if (!previous) return false
  const anvilsAlive = () => previous.anvilPids.filter((pid) => processName(pid) === 'anvil')
  if (processName(previous.servicePid) !== undefined && anvilsAlive().length > 0)
    throw new DevnetError(
      `The state dir ${stateDir} is in use by a running devnet (process ${previous.servicePid}).`,
      {
        details: 'Stop that devnet first, or use another --state-dir.',
      },
    )
  const deadline = Date.now() + 10_000
  while (anvilsAlive().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
  const left = anvilsAlive()
  for (const pid of left) process.kill(pid, 'SIGKILL')
  log(
    `state dir ${stateDir}: the previous devnet (process ${previous.servicePid}) did not stop cleanly; ${left.length ? `killed ${left.length} Anvil(s) still running` : 'its Anvils had saved and exited'}`,
  )
  return true
}
