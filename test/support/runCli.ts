import { spawn } from 'node:child_process'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..', '..')

/**
 * Spawns the real CLI (`node bin/intent-devnet.js …` from the repository root) and collects its
 * exit code and output.
 *
 * @example
 * const { code, stdout } = await runCli(['conformance', '--pack', 'quotes'])
 */
export function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/intent-devnet.js', ...args], { cwd: root })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
