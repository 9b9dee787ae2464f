import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')
const project = mkdtempSync(join(tmpdir(), 'vitest-integrator-'))
afterAll(() => rmSync(project, { recursive: true, force: true }))

// An integrator's project: the README's config and two test files (integrations/fixtures/vitest),
// with intent-devnet and vitest in its node_modules. The nested run is the real vitest CLI.
it('the global setup starts one devnet for the run, injects its manifest, and snapshot/revert isolates tests', async () => {
  cpSync(join(root, 'integrations/fixtures/vitest'), project, { recursive: true })
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }))
  mkdirSync(join(project, 'node_modules'))
  symlinkSync(root, join(project, 'node_modules/intent-devnet'))
  symlinkSync(join(root, 'node_modules/vitest'), join(project, 'node_modules/vitest'))

  const child = spawn(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run'], {
    cwd: project,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  })
  let output = ''
  child.stdout.on('data', (chunk) => {
    output += chunk
  })
  child.stderr.on('data', (chunk) => {
    output += chunk
  })
  const code = await new Promise((resolve) => child.once('exit', resolve))
  expect(code, output).toBe(0)
  expect(output).toMatch(/Test Files\s+2 passed \(2\)/)
  expect(output).toMatch(/Tests\s+6 passed \(6\)/)
}, 120_000)
