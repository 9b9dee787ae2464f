#!/usr/bin/env node
// Runs the CLI from its bundle (dist/intent-devnet.mjs, built by scripts/build.ts), which starts
// without a TypeScript loader. An installed package (its bundle and boot state were built at
// `npm pack`: simulator/devnet/bootStateFiles.js isPackedInstall) uses its bundle as it is and
// writes nothing under its own folder. In a checkout the bundle is used only when fresh: its
// stamp lists every source file it was built from with size and mtime, and any difference
// rebuilds it (into the checkout's dist/) first. When it cannot be built, or
// INTENT_DEVNET_BUNDLE=0, the sources run through tsx's loader (a devDependency) in this same
// process (signals reach the service directly either way).
//
// Code cache: Node 20 compiles the 5 MB bundle, and every function it runs, anew in each process
// (it has no module.enableCompileCache). The bin runs the bundle's body as a vm.Script instead of
// importing it (scripts/build.ts lays the bundle out for both) with V8's cached data from an
// earlier run of the same subcommand, in the user's cache directory ($XDG_CACHE_HOME, else
// ~/.cache: intent-devnet/<install>/intent-devnet.<command>.cache), never in the package. The
// cache names the bundle it was made from (size, mtime), Node's version and architecture, and
// carries the SHA-1 of its data; a cache of another bundle (stale) or a damaged one is not
// used, and one V8 rejects (other flags) is only a lost speed-up: each compiles as without a
// cache. A cache that was not used is written anew once the command has started (`up`: when the
// service answers) or at exit. INTENT_DEVNET_CODE_CACHE=0: no cache, read or written.
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The chains and host of `intent-devnet up` when its Anvils can start before the CLI loads:
 * only flags that do not change how the chains start (a state dir has to be checked and a fork
 * needs its URL first: those, `--help` and anything unknown take the normal path). The CLI
 * adopts the early Anvils that match what it asks for and starts the rest itself
 * (simulator/devnet/anvil.ts earlyAnvilLauncher), so a guess that is wrong costs time, not
 * behaviour. INTENT_DEVNET_EARLY_ANVILS=0: never.
 */
const earlyUp = () => {
  const [command, ...rest] = process.argv.slice(2)
  if (process.env.INTENT_DEVNET_EARLY_ANVILS === '0') return undefined
  if (command === 'local-target') return earlyLocalTarget(rest)
  if (command !== 'up') return undefined
  // startDevnet's DEFAULT_CHAIN_IDS and startService's DEFAULT_HOST.
  let chainIds = [1, 10, 8453, 42161]
  let host = '127.0.0.1'
  const takesValue = [
    '--port',
    '--api-key',
    '--quote-ttl',
    '--swap-fee-bps',
    '--request-timeout',
    '--manifest',
  ]
  for (let i = 0; i < rest.length; i++) {
    const at = rest[i].indexOf('=')
    const name = rest[i].startsWith('--') && at > 0 ? rest[i].slice(0, at) : rest[i]
    if (name === '--strict-version' || name === '--verbose') {
      if (name !== rest[i]) return undefined
      continue
    }
    const value = name !== rest[i] ? rest[i].slice(at + 1) : rest[++i]
    if (value === undefined) return undefined
    if (takesValue.includes(name)) continue
    if (name === '--host') host = value
    else if (name === '--chains') {
      chainIds = value.split(',').map((part) => Number(part.trim()))
      if (chainIds.some((id) => !Number.isSafeInteger(id) || id <= 0)) return undefined
      if (new Set(chainIds).size !== chainIds.length) return undefined
    } else return undefined
  }
  return { chainIds, host }
}

/**
 * The chains and host of the hidden `intent-devnet local-target`, the simulator a `conformance` or
 * `fuzz` run without --target starts in a child process (conformance/localTargetCli.ts): its
 * `--options-json` chains, else conformance/runner/startLocalTarget.ts LOCAL_TARGET_CHAIN_IDS, on
 * loopback; it adopts them the same way.
 */
const earlyLocalTarget = (rest) => {
  let chainIds = [10, 8453]
  const at = rest.indexOf('--options-json')
  if (at >= 0) {
    try {
      const given = JSON.parse(rest[at + 1]).chainIds
      if (given !== undefined) chainIds = given
    } catch {
      return undefined
    }
  }
  if (!Array.isArray(chainIds) || !chainIds.every((id) => Number.isSafeInteger(id) && id > 0))
    return undefined
  return { chainIds, host: '127.0.0.1' }
}

const root = new URL('../', import.meta.url)
// `--version` answers from package.json, before any bundle or source loads.
if (process.argv[2] === '--version' || process.argv[2] === '-V') {
  console.log(createRequire(import.meta.url)('../package.json').version)
  process.exit(0)
}

/**
 * The options of the simulator `intent-devnet conformance` without --target starts in a child
 * (conformance/localTargetCli.ts), when the bin can start it before the CLI loads: its own
 * `--api-key` (conformance/cli.ts hands runConformance that alone). `diff`, --help and
 * --chains-template start none. The CLI adopts the child when it asks for the same options
 * (conformance/runner/startLocalTargetProcess.ts), else starts its own and this one goes.
 */
const earlyLocalTargetOptions = () => {
  const [command, ...rest] = process.argv.slice(2)
  if (command !== 'conformance' || process.env.INTENT_DEVNET_EARLY_ANVILS === '0') return undefined
  if (rest[0] === 'diff') return undefined
  let apiKey
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]
    if (arg === '--target' || arg.startsWith('--target=') || arg.startsWith('--chains-template'))
      return undefined
    if (arg === '--help' || arg === '-h') return undefined
    if (arg === '--api-key') apiKey = rest[++i]
    else if (arg.startsWith('--api-key=')) apiKey = arg.slice('--api-key='.length)
  }
  return apiKey === undefined ? {} : { apiKey }
}

/**
 * Set by the bin for the `local-target` child it starts (below), to `stdin`: the child reads the
 * first line of its stdin before anything else, which the bin writes once it has checked the
 * bundle: its size and mtime when it found it fresh (the child runs that same bundle, checked by
 * one stat, rather than stat every source again: ~15-40 ms of its start, which the run waits
 * for). A bundle that needs a rebuild gets no line: the child is stopped, and the CLI starts its
 * own once rebuilt. Only `local-target` reads the line; nothing else trusts it.
 */
const CHECKED_BY_PARENT = 'INTENT_DEVNET_BUNDLE_CHECKED'
const checkingParent = process.env[CHECKED_BY_PARENT] === 'stdin' && process.argv[2] === 'local-target'
const checkedByParent = checkingParent ? readFirstLine() : undefined
// Its stdin ended before the line: the parent is gone.
if (checkingParent && checkedByParent === undefined) process.exit(1)
delete process.env[CHECKED_BY_PARENT]

/** The first line of stdin, read byte by byte (what follows is the CLI's); undefined at its end. */
function readFirstLine() {
  const byte = Buffer.alloc(1)
  let line = ''
  for (;;) {
    let read
    try {
      read = readSync(0, byte, 0, 1, null)
    } catch (error) {
      // A descriptor that does not block (the bin's pipe does): wait a millisecond for the line.
      if (error.code !== 'EAGAIN') return undefined
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1)
      continue
    }
    if (read === 0) return undefined
    if (byte[0] === 10) return line
    line += String.fromCharCode(byte[0])
  }
}

// The simulator of `conformance` without --target, in its own process from now on: started
// first, before the bundle is checked and loaded here, so that its start (Node's own boot
// alone is ~60 ms) runs beside this one's. It runs the bundle only once this process has
// found it fresh (its first line of stdin, above).
const localTargetOptions = earlyLocalTargetOptions()
/** The child and what it printed so far, until the CLI adopts it. */
let early
if (localTargetOptions) {
  const child = spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), 'local-target', '--options-json', JSON.stringify(localTargetOptions)],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, [CHECKED_BY_PARENT]: 'stdin' } },
  )
  child.stdin.on('error', () => {})
  early = { child, options: JSON.stringify(localTargetOptions), stdout: [], stderr: [] }
  const keepOut = (chunk) => early.stdout.push(chunk)
  const keepErr = (chunk) => early.stderr.push(chunk)
  child.stdout.on('data', keepOut)
  child.stderr.on('data', keepErr)
  let adopted = false
  // The CLI takes it (and its output so far) by removing these two listeners.
  early.release = () => {
    adopted = true
    child.stdout.off('data', keepOut)
    child.stderr.off('data', keepErr)
  }
  process.once('exit', () => {
    if (!adopted) child.kill('SIGTERM')
  })
}

const { EARLY_ANVILS, spawnEarlyAnvil } = await import('../simulator/devnet/anvilProcess.js')
const { bundleFresh, freshBootState, isPackedInstall } = await import('../simulator/devnet/bootStateFiles.js')

const bundle = new URL('dist/intent-devnet.mjs', root)
/** An installed package: its build is used as it came, never rebuilt, and nothing is written into it. */
const packed = isPackedInstall(fileURLToPath(root))
/** The bundle's size and mtime, which name it (its stamp, its code cache); undefined without one. */
const bundleStat = () => {
  try {
    const built = statSync(bundle)
    return `${built.size} ${built.mtimeMs}`
  } catch {
    return undefined
  }
}
/** The bundle exists and no source it was built from changed (its stamp lists ~360 files: 10-40 ms). */
const fresh =
  (process.argv[2] === 'local-target' && checkedByParent !== undefined && checkedByParent === bundleStat()) ||
  bundleFresh(fileURLToPath(root))

// The early child runs the bundle found fresh here (only a bundle that needs no rebuild: the
// child runs it too), else it goes.
if (early) {
  if (fresh) {
    early.child.stdin.write(`${bundleStat() ?? '-'}\n`)
    globalThis[Symbol.for('intent-devnet.earlyLocalTarget')] = early
  } else {
    early.child.kill('SIGTERM')
    early = undefined
  }
}

// First, so the Anvils boot while the bundle loads: from the devnet's boot state baked with this
// bundle when there is one (simulator/devnet/bootStateFiles.js), so `up` finds our contracts
// placed and the accounts funded instead of doing it (startDevnet's `bootState`).
const up = earlyUp()
if (up) {
  try {
    // INTENT_DEVNET_BOOT_STATE=0: place and fund at every start, as before the bake.
    const baked =
      fresh && process.env.INTENT_DEVNET_BOOT_STATE !== '0'
        ? freshBootState(fileURLToPath(root), { bundleChecked: true })
        : undefined
    const early = up.chainIds.map((chainId) =>
      spawnEarlyAnvil({ chainId, host: up.host, loadStatePath: baked?.chains[chainId]?.path }),
    )
    globalThis[Symbol.for(EARLY_ANVILS)] = early
    // The ones the CLI did not adopt (it takes them out of this list) go with this process.
    process.once('exit', () => {
      for (const anvil of early) anvil.child.kill('SIGTERM')
    })
  } catch (error) {
    if (process.env.INTENT_DEVNET_DEBUG) console.error('intent-devnet: no early Anvils:', error)
  }
}

/** scripts/build.ts SCRIPT_BODY_MARKER, on a line of its own: the body's function expression follows. */
const BODY_MARKER = '\n//# intent-devnet: script body below\n'
/** The end of the body's function expression, then scripts/build.ts SCRIPT_BODY_CALL. */
const BODY_END = '\n})\n(require, __bundleUrl);'

/**
 * Runs the bundle's body as a script with a code cache (see the top of this file); imports the
 * bundle as a module when it has no script body or INTENT_DEVNET_CODE_CACHE=0.
 */
const runBundle = async () => {
  const built = statSync(bundle)
  // The code that runs, named as its code cache names it: what the CLI caches of its own work
  // (conformance/scenario/yamlCache.ts openValidatedCache: the scenarios this build validated).
  globalThis[Symbol.for('intent-devnet.build')] = `${fileURLToPath(bundle)} ${built.size} ${built.mtimeMs}`
  // Pure ASCII (scripts/build.ts makes it so): latin1 reads it without decoding UTF-8.
  const source = process.env.INTENT_DEVNET_CODE_CACHE === '0' ? '' : readFileSync(bundle, 'latin1')
  const at = source.indexOf(BODY_MARKER)
  const end = source.lastIndexOf(BODY_END)
  if (at < 0 || end < at) return import(bundle.href)
  const command = /^[a-z][a-z-]*$/.test(process.argv[2] ?? '') ? process.argv[2] : 'other'
  // Loaded only here, so that nothing but spawn's delays the early child (above).
  const [{ createHash }, { homedir }, { setFlagsFromString }, { Script, constants: vmConstants }] =
    await Promise.all([import('node:crypto'), import('node:os'), import('node:v8'), import('node:vm')])
  // One folder per install (its path's hash), in the user's cache directory.
  const cacheDir = join(
    process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
    'intent-devnet',
    createHash('sha1').update(fileURLToPath(root)).digest('hex').slice(0, 16),
  )
  const cacheFile = join(cacheDir, `intent-devnet.${command}.cache`)
  const key = `${built.size} ${built.mtimeMs} ${process.version} ${process.arch}`
  const digest = (data) => createHash('sha1').update(data).digest('hex')
  let cachedData
  let status = 'absent'
  try {
    // `KEY SHA1\n` then V8's data: V8 does not check its data in a release build (a damaged
    // cache can crash it), so the bin does, before V8 sees it.
    const file = readFileSync(cacheFile)
    const header = file.subarray(0, file.indexOf(10)).toString('latin1')
    const data = file.subarray(header.length + 1)
    if (!header.startsWith(`${key} `)) status = 'stale'
    else if (header !== `${key} ${digest(data)}`) status = 'damaged'
    else cachedData = data
  } catch {}
  // V8 takes a cache only under the flags it was made with, and the service's idle collector
  // sets --expose-gc once it starts (simulator/util/idleCollector.ts): set it first, so the cache
  // written after the start and the next compile see the same flags.
  setFlagsFromString('--expose-gc')
  // `(async function (require, __bundleUrl) {…})` as the file holds it: a slice of its text,
  // which V8 compiles as it is (a wrapper put around the body made a 6 MB copy: ~10 ms).
  const start = at + BODY_MARKER.length
  const script = new Script(source.slice(start, end + 3), {
    filename: bundle.pathname,
    // Line numbers as in the file.
    lineOffset: source.slice(0, start).split('\n').length - 1,
    cachedData,
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  if (cachedData) status = script.cachedDataRejected ? 'rejected' : 'used'
  if (process.env.INTENT_DEVNET_DEBUG) console.error(`intent-devnet: code cache ${status}`)
  if (status !== 'used') {
    let written = false
    const write = () => {
      if (written) return
      written = true
      try {
        mkdirSync(cacheDir, { recursive: true })
        const temporary = `${cacheFile}.${process.pid}.tmp`
        const data = script.createCachedData()
        writeFileSync(temporary, Buffer.concat([Buffer.from(`${key} ${digest(data)}\n`, 'latin1'), data]))
        renameSync(temporary, cacheFile)
      } catch (error) {
        // A read-only install runs without a cache.
        if (process.env.INTENT_DEVNET_DEBUG)
          console.error('intent-devnet: cannot write the code cache:', error)
      }
    }
    // `up` calls it once the service answers (cli/up.ts); every command at exit.
    globalThis[Symbol.for('intent-devnet.started')] = write
    process.once('exit', write)
  }
  await script.runInThisContext()(createRequire(bundle), bundle.href)
}

/** Registers tsx's loader (once); returns its unregister function. */
let unregisterTsx
const registerTsx = async () => {
  unregisterTsx ??= (await import('tsx/esm/api')).register()
  return unregisterTsx
}

/** Rebuilds the bundle (through tsx, which loads scripts/build.ts); false when that fails. */
const rebuild = async () => {
  try {
    await registerTsx()
    const { buildBundle } = await import('../scripts/build.ts')
    // The boot state is baked for the new bundle beside this start, for the next one (`up` only:
    // no other command uses it).
    await buildBundle('intent-devnet', undefined, {
      bakeBootState: process.argv[2] === 'up' ? 'background' : false,
    })
    // The bundle needs no loader: without tsx's hooks it loads as fast as on a fresh start.
    await unregisterTsx()
    unregisterTsx = undefined
    return true
  } catch (error) {
    if (process.env.INTENT_DEVNET_DEBUG) console.error('intent-devnet: cannot build the bundle:', error)
    return false
  }
}

if (packed && !fresh) {
  console.error(
    'intent-devnet: this install has no CLI bundle (dist/intent-devnet.mjs); reinstall the package.',
  )
  process.exit(1)
}
const useBundle = packed || (process.env.INTENT_DEVNET_BUNDLE !== '0' && (fresh || (await rebuild())))
if (useBundle) await runBundle()
else {
  await registerTsx()
  await import('../cli/main.ts')
}
