/**
 * Fast start (issue 18): from the command to `/health` 200, beside four bare Anvils started in
 * the same run, alternating, median of `--runs` (default 5) each.
 *
 * - bare: 4 Anvil processes (chains 1, 10, 8453, 42161) spawned in parallel until each listens;
 * - `npm start`, `npx intent-devnet up` and `node bin/intent-devnet.js up` (the bundle), each with
 *   `--port` on a free port, from the spawn to the first `/health` 200;
 * - before: `tsx cli/main.ts up` (what `npm start` ran before issue 18) and the bin on the
 *   sources (`INTENT_DEVNET_BUNDLE=0`, what `npx intent-devnet` ran);
 * - the bundle without its V8 code cache, without the Anvils the bin starts early and/or without
 *   the baked boot state (`INTENT_DEVNET_CODE_CACHE=0`, `INTENT_DEVNET_EARLY_ANVILS=0`,
 *   `INTENT_DEVNET_BOOT_STATE=0`; all off: the start before);
 * - the floor: `npm start` and `node` of scripts/bench/floorDevnet.mjs, which only starts the
 *   devnet's four Anvils as the bin does (boot state included) and answers `/health` from
 *   node:http: the part of a start that is Node's, npm's and Anvil's, with none of the service;
 * - in-process `startSimulator` (modules already loaded) to `/health` 200, from the boot state
 *   (what `up` does) and placing and funding;
 * then the idle RSS of the service and its 4 Anvils, the wall time of each start-up phase
 * (in process) and the CPU time of a bundled start by package (`node --cpu-prof`).
 * `--conformance N`: also `intent-devnet conformance` (all packs) N times, bundle vs tsx.
 * `--only a,b`: only the starts whose name contains a or b ("in-process" for that one);
 * `--before DIR`: also `npm start` and the bin of another copy of the project (the code before);
 * `--quick`: stop after the ready times. Each start's CPU time (its node processes, from /proc)
 * is printed beside its wall time: on a machine others load, it moves less than the wall time.
 *
 * @example
 * npx tsx scripts/bench/start.ts --runs 5 --conformance 3
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildBundle, bundlePath, staleReason } from '../build'
import {
  bareAnvils,
  chainIds,
  descendants,
  healthy,
  median,
  root,
  rssKiB,
  type Started,
  sleep,
  startCommand,
  stopGroup,
} from './startSupport'

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name)
  return at > 0 ? Number(process.argv[at + 1]) : fallback
}
const runs = arg('--runs', 5)
/** `--only a,b`: just the starts whose name contains one of these (and the bare Anvils); `--quick`: no RSS, phases or profile. */
const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]!.split(',')
  : undefined
const quick = process.argv.includes('--quick')
const conformanceRuns = arg('--conformance', 0)

const allVariants: Record<string, () => Promise<Started>> = {
  'npm start': () => startCommand('npm', ['start', '--silent', '--']),
  'npm start (before: no code cache, no early Anvils, no boot state)': () =>
    startCommand('npm', ['start', '--silent', '--'], {
      INTENT_DEVNET_CODE_CACHE: '0',
      INTENT_DEVNET_EARLY_ANVILS: '0',
      INTENT_DEVNET_BOOT_STATE: '0',
    }),
  'npm start (no boot state)': () =>
    startCommand('npm', ['start', '--silent', '--'], { INTENT_DEVNET_BOOT_STATE: '0' }),
  'npx intent-devnet up': () => startCommand('npx', ['--offline', 'intent-devnet', 'up']),
  'node bin/intent-devnet.js up (bundle)': () =>
    startCommand(process.execPath, ['bin/intent-devnet.js', 'up']),
  'node bin/intent-devnet.js up (bundle, no boot state)': () =>
    startCommand(process.execPath, ['bin/intent-devnet.js', 'up'], { INTENT_DEVNET_BOOT_STATE: '0' }),
  'node bin/intent-devnet.js up (bundle, no code cache)': () =>
    startCommand(process.execPath, ['bin/intent-devnet.js', 'up'], { INTENT_DEVNET_CODE_CACHE: '0' }),
  'node bin/intent-devnet.js up (bundle, no early Anvils)': () =>
    startCommand(process.execPath, ['bin/intent-devnet.js', 'up'], { INTENT_DEVNET_EARLY_ANVILS: '0' }),
  'node bin/intent-devnet.js up (bundle, none of the three: before)': () =>
    startCommand(process.execPath, ['bin/intent-devnet.js', 'up'], {
      INTENT_DEVNET_CODE_CACHE: '0',
      INTENT_DEVNET_EARLY_ANVILS: '0',
      INTENT_DEVNET_BOOT_STATE: '0',
    }),
  'before: tsx cli/main.ts up': () =>
    startCommand(join(root, 'node_modules/.bin/tsx'), ['cli/main.ts', 'up']),
  'before: node bin/intent-devnet.js up (tsx loader)': () =>
    startCommand(process.execPath, ['bin/intent-devnet.js', 'up'], { INTENT_DEVNET_BUNDLE: '0' }),
}
// The floor: a project whose `npm start` runs floorDevnet.mjs, in a folder of its own.
const floorDir = mkdtempSync(join(tmpdir(), 'start-floor-'))
const floorScript = join(root, 'scripts/bench/floorDevnet.mjs')
writeFileSync(
  join(floorDir, 'package.json'),
  JSON.stringify({ name: 'floor', private: true, scripts: { start: `node ${floorScript}` } }),
)
allVariants['floor: npm start of floorDevnet.mjs (4 Anvils + node:http /health, nothing else)'] = () =>
  startCommand('npm', ['start', '--silent', '--'], {}, floorDir)
allVariants['floor: node scripts/bench/floorDevnet.mjs'] = () => startCommand(process.execPath, [floorScript])
// `--before DIR`: the same starts of another copy of the project (e.g. `git archive HEAD`, its
// node_modules linked, its bundle built), side by side with these.
const beforeDir = process.argv.includes('--before')
  ? process.argv[process.argv.indexOf('--before') + 1]!
  : undefined
if (beforeDir) {
  allVariants['before (--before): npm start'] = () =>
    startCommand('npm', ['start', '--silent', '--'], {}, beforeDir)
  allVariants['before (--before): node bin/intent-devnet.js up'] = () =>
    startCommand(process.execPath, [join(beforeDir, 'bin/intent-devnet.js'), 'up'], {}, beforeDir)
}
const variants = Object.fromEntries(
  Object.entries(allVariants).filter(([name]) => !only || only.some((part) => name.includes(part))),
)

if (staleReason('intent-devnet')) await buildBundle('intent-devnet')
const { startSimulator } = await import('../../simulator/startSimulator')
const inProcess = async (bootState: boolean) => {
  const started = performance.now()
  const sim = await startSimulator({ port: 0, chainIds, bootState })
  while (!(await healthy(`${sim.baseUrl}/health`))) await sleep(5)
  const ms = performance.now() - started
  await sim.close()
  return ms
}

// One warm-up of each (disk cache, the first JIT of this process).
await bareAnvils()
for (const start of Object.values(variants)) await stopGroup((await start()).child)
if (!only || only.includes('in-process')) await inProcess(true)

const cpu: Record<string, number[]> = {}
const times: Record<string, number[]> = {
  'bare: 4 Anvils': [],
  ...Object.fromEntries(Object.keys(variants).map((name) => [name, []])),
  'in-process startSimulator (boot state)': [],
  'in-process startSimulator (no boot state)': [],
}
for (let i = 0; i < runs; i++) {
  for (const [name, start] of Object.entries(variants)) {
    times['bare: 4 Anvils']!.push(await bareAnvils())
    // Others edit the sources while this runs: a rebuild belongs outside the timed start.
    if (staleReason('intent-devnet')) await buildBundle('intent-devnet')
    const started = await start()
    times[name]!.push(started.ms)
    cpu[name] ??= []
    cpu[name].push(started.cpuMs)
    await stopGroup(started.child)
  }
  if (!only || only.includes('in-process')) {
    times['in-process startSimulator (boot state)']!.push(await inProcess(true))
    times['in-process startSimulator (no boot state)']!.push(await inProcess(false))
  }
}
for (const name of Object.keys(times)) if (times[name]!.length === 0) delete times[name]

const bare = median(times['bare: 4 Anvils']!)
console.log(
  `\nready: median of ${runs} (bare: ${times['bare: 4 Anvils']!.length}), load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
)
console.log(
  '| start | median | runs (ms) | ratio to 4 bare Anvils | CPU of its node processes to /health (median) |\n|---|---|---|---|---|',
)
for (const [name, values] of Object.entries(times))
  console.log(
    `| ${name} | ${median(values).toFixed(0)} ms | ${values.map((v) => v.toFixed(0)).join(', ')} | ${(median(values) / bare).toFixed(2)}x | ${cpu[name] ? `${median(cpu[name]).toFixed(0)} ms` : ''} |`,
  )

if (quick) process.exit(0)

// Idle memory: the service and its Anvils, 10 s after it answers; the bundle, then the sources through tsx.
for (const [name, env] of [
  ['bundle', {}],
  ['before (tsx loader)', { INTENT_DEVNET_BUNDLE: '0' }],
] as const) {
  const started = await startCommand(process.execPath, ['bin/intent-devnet.js', 'up'], env)
  await sleep(10_000)
  const service = rssKiB(started.child.pid!)
  const anvils = descendants(started.child.pid!).filter((process) => process.name === 'anvil')
  const anvilRss = anvils.map((anvil) => rssKiB(anvil.pid))
  const total = service + anvilRss.reduce((a, b) => a + b, 0)
  console.log(
    `\nidle RSS, ${name}: service ${(service / 1024).toFixed(0)} MiB + ${anvils.length} Anvils ${anvilRss.map((kib) => (kib / 1024).toFixed(0)).join(' + ')} MiB = ${(total / 1024).toFixed(0)} MiB`,
  )
  await stopGroup(started.child)
}

// Wall time of each phase, in this process (modules of the phase loaded when it starts).
{
  const { startDevnet } = await import('../../simulator/devnet/startDevnet')
  const { createServices } = await import('../../simulator/startSimulator')
  const { startService } = await import('../../simulator/http/startService')
  const { createFaults } = await import('../../simulator/faults/faults')
  const { withHttpFaults } = await import('../../simulator/faultInjection/http/httpFaults')
  const phases: Record<string, number[]> = {}
  const add = (name: string, ms: number) => {
    phases[name] ??= []
    phases[name].push(ms)
  }
  // From the boot state (what `up` does), then placing and funding, alternating.
  for (let i = 0; i < runs * 2; i++) {
    const bootState = i % 2 === 0
    const how = bootState ? 'boot state' : 'no boot state'
    if (bootState && staleReason('intent-devnet')) await buildBundle('intent-devnet')
    let last = performance.now()
    const started = last
    const devnet = await startDevnet({
      chainIds,
      bootState,
      log: (line) => {
        const now = performance.now()
        add(`${how}: devnet: ${line.replace(/\d+/g, 'N').slice(0, 60)}`, now - last)
        last = now
      },
    })
    add(`${how}: devnet ready (startDevnet, total)`, performance.now() - started)
    last = performance.now()
    const faults = createFaults()
    const domain = await createServices({ devnet, faults })
    add(`${how}: domain services (createServices)`, performance.now() - last)
    last = performance.now()
    const service = await startService({
      port: 0,
      services: domain.services,
      plugins: [withHttpFaults(faults)],
    })
    add(`${how}: HTTP service built and listening (startService)`, performance.now() - last)
    await service.close()
    await domain.stop()
    await devnet.stop()
  }
  console.log(`\nphases in process, median of ${runs}:\n| phase | median |\n|---|---|`)
  for (const [name, values] of Object.entries(phases))
    console.log(`| ${name} | ${median(values).toFixed(0)} ms |`)
}

// CPU time of a bundled start by package: `node --cpu-prof` until /health 200, mapped through
// the bundle's source map. Self time of each sample, by the package (or our folder) of its code.
{
  const profileDir = mkdtempSync(join(tmpdir(), 'bench-start-'))
  const nodeStart = performance.now()
  await new Promise((resolve) => spawn(process.execPath, ['-e', '0']).once('exit', resolve))
  const nodeMs = performance.now() - nodeStart
  const started = await startCommand(process.execPath, [
    '--cpu-prof',
    `--cpu-prof-dir=${profileDir}`,
    '--cpu-prof-interval=200',
    'bin/intent-devnet.js',
    'up',
  ])
  await stopGroup(started.child)
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))
  if (!file) throw new Error('no CPU profile written')
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as {
    nodes: {
      id: number
      callFrame: { url: string; lineNumber: number; columnNumber: number; functionName: string }
    }[]
    samples: number[]
    timeDeltas: number[]
  }
  const bundleUrl = `file://${bundlePath('intent-devnet')}`
  const map = new SourceMap(JSON.parse(readFileSync(`${bundlePath('intent-devnet')}.map`, 'utf8')))
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const packageOf = (url: string, line: number, column: number, name: string) => {
    // The bin runs the bundle's body as a vm.Script named by its path (bin/intent-devnet.js).
    if (url === bundleUrl || url === bundlePath('intent-devnet')) {
      const entry = map.findEntry(line, column) as { originalSource?: string }
      // The bundle's own small modules (scripts/build.ts: `require-external:…`, `lazy-builtin:…`).
      const namespace = entry.originalSource?.match(/^([a-z-]+):(?!\/)/)?.[1]
      if (namespace && namespace !== 'file') return `bundle: ${namespace}`
      const source = entry.originalSource?.startsWith('file:')
        ? fileURLToPath(entry.originalSource)
        : entry.originalSource
          ? fileURLToPath(new URL(entry.originalSource, bundleUrl))
          : ''
      const inModules = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)
      if (inModules) return inModules[1]!
      return source
        ? `ours: ${source
            .slice(root.length + 1)
            .split('/')
            .slice(0, 2)
            .join('/')}`
        : 'bundle (unmapped)'
    }
    // Node's own modules by file (node:internal/modules/esm/utils is where the bundle compiles).
    if (url.startsWith('node:')) return `node: ${url.replace('node:internal/', '')}`
    if (url === '' && !name.startsWith('(')) return `(${name || 'native'})`
    if (url === '') return name
    const inModules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)
    return inModules ? `${inModules[1]} (node_modules)` : url.replace(`file://${root}/`, '')
  }
  // Only the samples until the service answered (the rest is the shutdown).
  const cutoff = started.ms * 1000
  const totals = new Map<string, number>()
  let elapsed = 0
  for (let i = 0; i < profile.samples.length; i++) {
    elapsed += profile.timeDeltas[i] ?? 0
    if (elapsed > cutoff) break
    const frame = byId.get(profile.samples[i]!)!.callFrame
    const key = packageOf(frame.url, frame.lineNumber, frame.columnNumber, frame.functionName)
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
  }
  console.log(
    `\nbundled start (${started.ms.toFixed(0)} ms to /health under --cpu-prof; \`node -e 0\` alone: ${nodeMs.toFixed(0)} ms), CPU self time by package:\n| code | ms |\n|---|---|`,
  )
  for (const [key, ms] of [...totals].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms >= 5))
    console.log(`| ${key} | ${ms.toFixed(0)} |`)
}

if (conformanceRuns > 0) {
  const out = mkdtempSync(join(tmpdir(), 'bench-start-conformance-'))
  const timeCommand = (command: string, args: string[], env: Record<string, string> = {}) =>
    new Promise<number>((resolve) => {
      const started = performance.now()
      spawn(command, args, { cwd: root, stdio: 'ignore', env: { ...process.env, ...env } }).once(
        'exit',
        (code) => {
          if (code !== 0) console.error(`${command} ${args.join(' ')} exited ${code}`)
          resolve(performance.now() - started)
        },
      )
    })
  const packs = ['conformance', '--reporter', 'json', '--out', out]
  const after: number[] = []
  const before: number[] = []
  for (let i = 0; i < conformanceRuns; i++) {
    after.push(await timeCommand(process.execPath, ['bin/intent-devnet.js', ...packs]))
    before.push(await timeCommand(join(root, 'node_modules/.bin/tsx'), ['cli/main.ts', ...packs]))
  }
  console.log(
    `\nintent-devnet conformance, all packs, median of ${conformanceRuns}: bundle ${(median(after) / 1000).toFixed(2)} s (${after.map((v) => (v / 1000).toFixed(2)).join(', ')}), before (tsx) ${(median(before) / 1000).toFixed(2)} s (${before.map((v) => (v / 1000).toFixed(2)).join(', ')}): ${(median(after) / median(before)).toFixed(2)}x`,
  )
}
process.exit(0)
