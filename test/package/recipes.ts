// The package tests that run documentation as written (install.test.ts calls them with its one
// pack and install): the README's "Use it from your project" snippets, and the README's install
// lines and docs/ci.md's conformance recipe against a local registry holding the tarball.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { parse } from 'yaml'
import { linkTools, root, run, startUp, writeProject } from './consumer'
import { startRegistry, writeNpmrc } from './registry'

// biome-ignore lint/suspicious/noControlCharactersInRegex: colours in vitest's output
const clean = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '')

/**
 * Publishes the tarball to Verdaccio, then runs the README's install lines and docs/ci.md's
 * conformance recipe (docs/ci/conformance.yml) in empty folders whose npm points at it.
 *
 * @example
 * await runRegistryRecipes({ work, tarball })
 */
export async function runRegistryRecipes({
  work,
  tarball,
}: {
  work: string
  tarball: string
}): Promise<void> {
  const dir = join(work, 'registry')
  mkdirSync(dir, { recursive: true })
  const upstream = (await run('npm', ['config', 'get', 'registry'], work)).stdout.trim()
  const registry = await startRegistry(dir, upstream)
  try {
    const npmrc = join(dir, 'publisher')
    mkdirSync(npmrc)
    writeNpmrc(npmrc, registry)
    await run('npm', ['publish', tarball, '--userconfig', join(npmrc, '.npmrc')], npmrc)
    // The README's install lines, in an empty project whose npm points at the registry.
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const section = readme.slice(readme.indexOf('## Use it from your project'))
    const lines = section
      .match(/```sh\n([\s\S]*?)```/)![1]!
      .trim()
      .split('\n')
    const project = join(dir, 'readme')
    mkdirSync(project)
    writeNpmrc(project, registry)
    writeProject(project, { 'package.json': JSON.stringify({ name: 'readme', private: true }) })
    expect(lines[0]).toBe('npm install --save-dev intent-devnet')
    await run('bash', ['-c', lines[0]!], project)
    const [command, ...args] = lines[1]!.split(' ')
    expect(command).toBe('npx')
    const devnet = await startUp(command!, args, project)
    try {
      expect((await fetch(`${devnet.baseUrl}/health`)).status).toBe(200)
      // docs/ci.md's conformance recipe (docs/ci/conformance.yml): its run lines, shard 1 of 4,
      // against the devnet just started, in an empty folder.
      const workflow = parse(readFileSync(join(root, 'docs/ci/conformance.yml'), 'utf8')) as {
        jobs: Record<string, { steps: { run?: string; env?: Record<string, string> }[] }>
      }
      const steps = Object.values(workflow.jobs)
        .flatMap((job) => job.steps)
        .filter((step) => step.run?.includes('intent-devnet'))
      expect(steps.length).toBe(2)
      const recipe = join(dir, 'recipe')
      mkdirSync(recipe)
      writeNpmrc(recipe, registry)
      const env = { ...process.env, CONFORMANCE_TARGET: devnet.baseUrl, CONFORMANCE_API_KEY: 'devnet-key' }
      for (const step of steps)
        await run('bash', ['-c', step.run!.replaceAll('${{ matrix.shard }}', '1')], recipe, env)
      expect(existsSync(join(recipe, 'reports/shard-1/junit.xml'))).toBe(true)
    } finally {
      await devnet.stop()
    }
  } finally {
    await registry.stop()
  }
}

/**
 * Writes every snippet of the README's "Use it from your project" into a project beside the
 * install (each names its file in its first line) and runs each.
 *
 * @example
 * await runReadmeSnippets({ consumer, installed })
 */
export async function runReadmeSnippets({
  consumer,
  installed,
}: {
  consumer: string
  installed: string
}): Promise<void> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const start = readme.indexOf('## Use it from your project')
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1))
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, code]) => ({
    lang,
    code: code!,
  }))
  const dir = join(consumer, 'readme')
  const files = blocks.filter((block) => block.lang !== 'sh')
  for (const { code } of files) {
    const path = code.match(/^\/\/ (\S+)\n/)?.[1]
    expect(path, code.slice(0, 80)).toBeDefined()
    writeProject(dir, { [path!]: code })
  }
  // The sh block (install and up) runs in the registry test; every other block runs here.
  expect(blocks.length - files.length).toBe(1)
  writeProject(dir, {
    'jest-cjs/package.json': JSON.stringify({ type: 'commonjs' }),
    'jest-esm/package.json': JSON.stringify({ type: 'module' }),
  })
  linkTools(consumer, ['@rhinestone/sdk'])
  const jest = join(consumer, 'node_modules/jest/bin/jest.js')
  const ran = new Set<string>()
  const node = (path: string, args: string[] = []) => {
    ran.add(path)
    return run(process.execPath, [...args, path], dir)
  }
  const [sdk, nodeTest, plain] = await Promise.all([
    node('sdk/quote.mjs'),
    node('node-test/devnet.test.mjs', ['--test']),
    node('plain/check.cjs'),
  ])
  expect(sdk.stdout).toMatch(/settled/)
  expect(nodeTest.stdout).toMatch(/# pass 1/)
  expect(plain.stdout.trim()).toMatch(/^\d+ 1$/)
  const vitest = await run(
    process.execPath,
    [join(consumer, 'node_modules/vitest/vitest.mjs'), 'run', '--root', 'vitest'],
    dir,
  )
  expect(clean(vitest.stdout)).toMatch(/Tests\s+1 passed/)
  const [jestCjs, jestEsm] = await Promise.all([
    run(process.execPath, [jest, '--ci', '--json'], join(dir, 'jest-cjs')),
    run(process.execPath, ['--experimental-vm-modules', jest, '--ci', '--json'], join(dir, 'jest-esm')),
  ])
  expect(JSON.parse(jestCjs.stdout)).toMatchObject({ success: true, numPassedTests: 1 })
  expect(JSON.parse(jestEsm.stdout)).toMatchObject({ success: true, numPassedTests: 1 })
  for (const path of [
    'vitest/vitest.config.ts',
    'vitest/devnet.test.ts',
    'jest-cjs/jest.config.js',
    'jest-cjs/devnet.test.js',
    'jest-esm/jest.config.js',
    'jest-esm/devnet.test.js',
  ])
    ran.add(path)
  // The testcontainers snippet needs a Docker engine and the image (the test above builds it).
  if (
    await run('docker', ['info'], dir).then(
      () => true,
      () => false,
    )
  ) {
    const version = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version
    await run('docker', ['tag', 'intent-devnet:package-test', `intent-devnet:${version}`], dir)
    const env = {
      ...process.env,
      TESTCONTAINERS_RYUK_DISABLED: 'true',
      TESTCONTAINERS_HOST_OVERRIDE: '127.0.0.1',
    }
    expect((await run(process.execPath, ['testcontainers/devnet.mjs'], dir, env)).stdout).toMatch(/ 2 3$/m)
    ran.add('testcontainers/devnet.mjs')
  }
  const written = files.map(({ code }) => code.match(/^\/\/ (\S+)\n/)![1]!)
  expect(written.filter((path) => !ran.has(path) && path !== 'testcontainers/devnet.mjs')).toEqual([])
}
