import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import type { Address, Hex } from 'viem'
import { BaseError } from '../../spec/BaseError'
import { runConformance } from '../runner/runConformance'
import { LOCAL_TARGET_CHAIN_IDS } from '../runner/startLocalTarget'
import type { RunResult, ScenarioResult } from '../runner/types'
import { type LoadedScenario, parseScenario, ScenarioFileError } from '../scenario/loadScenarios'
import { readRecordedService, stateDirOf } from './stateFolder'
import { isPricedPointer } from './volatile'

/** Thrown when a recording cannot be replayed as asked (a key it needs is missing, no state). */
export class ReplayError extends BaseError {
  override name = 'Record.ReplayError'
}

/** Parameters of {@link replayRecording}. */
export type ReplayRecordingParameters = {
  /** The scenario file `record` wrote (its `FILE.state/` beside it, when there is one). */
  file: string
  /** Run it there; without it a simulator is started with the recorded chain state and clock. */
  target?: string | undefined
  apiKey?: string | undefined
  /** Private keys by address, for steps marked `${key.<address>}` (signers that are not devnet accounts). */
  keys?: Record<string, Hex> | undefined
  /** Time limit of the scenario, seconds (default 180). */
  timeoutSeconds?: number | undefined
  /** Called when the scenario ends (progress output). */
  onScenario?: ((result: ScenarioResult, done: number, total: number) => void) | undefined
  /** Where the started simulator's log lines go (default: nowhere). */
  log?: ((line: string) => void) | undefined
}

/**
 * Replays a recorded scenario: against `target` when given, else against a simulator started
 * here from a temporary copy of the recorded chain state and clock (`FILE.state/`; the simulator
 * writes its state back on stop, so the recording is never changed). Returns the runner's result:
 * every check of every step, for the console, JUnit, JSON and HTML reporters.
 *
 * @example
 * const run = await replayRecording({ file: 'bug.yaml' })
 * process.exitCode = run.summary.unexpected > 0 || run.scenarios[0]?.status !== 'passed' ? 1 : 0
 */
export async function replayRecording(parameters: ReplayRecordingParameters): Promise<RunResult> {
  const recorded = await loadRecordedScenario(parameters.file, parameters.keys ?? {})
  if (parameters.target) {
    // Another target prices gas with its own chains: the amounts and fees priced from the
    // recorded chains' gas are not expected of it (the choices by content still hold).
    const scenario = withoutPricedMatchers(recorded)
    if (!parameters.apiKey) throw new ReplayError('--api-key is required with --target.')
    return runConformance({
      target: parameters.target,
      apiKey: parameters.apiKey,
      scenarios: [scenario],
      timeoutSeconds: parameters.timeoutSeconds ?? 180,
      onScenario: parameters.onScenario,
    })
  }
  const scenario = recorded
  const recordedState = stateDirOf(parameters.file)
  let stateDir: string | undefined
  let chainIds: readonly number[] = LOCAL_TARGET_CHAIN_IDS
  let service: Awaited<ReturnType<typeof readRecordedService>> = {}
  if (existsSync(recordedState)) {
    service = await readRecordedService(recordedState)
    // The simulator's state-dir format, from its public entry, loaded only when a state is at hand.
    const { readStateMeta } = await import('../../simulator/index')
    const meta = await readStateMeta(recordedState)
    if (!meta)
      throw new ReplayError(`${recordedState}/ has no devnet.json: it is not a recorded chain state.`)
    chainIds = meta.chainIds
    stateDir = await mkdtemp(join(tmpdir(), 'intent-devnet-replay-'))
    await cp(recordedState, stateDir, { recursive: true })
  }
  const { startSimulator } = await import('../../simulator/index')
  try {
    const sim = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      apiKey: parameters.apiKey ?? `replay-${randomBytes(6).toString('hex')}`,
      chainIds,
      stateDir,
      log: parameters.log,
      quoteTtlSeconds: service.quoteTtlSeconds,
      swapFeeBps: service.swapFeeBps,
      gasPrices: service.gasPrices,
      strictVersion: service.strictVersion,
      mnemonic: service.mnemonic,
      accountCount: service.accountCount,
      // The devnet's time when the recording began: the chains' next block and the service's
      // clock start there, so the replay runs at the recorded time however long after it is made.
      clockAt: service.clockAt,
    })
    try {
      // The price table as it was when the recording began.
      if (service.prices) await sim.services.prices.setPrices(service.prices)
      return await runConformance({
        target: sim.baseUrl,
        apiKey: sim.apiKey,
        scenarios: [scenario],
        timeoutSeconds: parameters.timeoutSeconds ?? 180,
        onScenario: parameters.onScenario,
      })
    } finally {
      await sim.close()
    }
  } finally {
    if (stateDir) await rm(stateDir, { recursive: true, force: true })
  }
}

/** Whether a replay behaved as recorded: the scenario ran, and every check passed. */
export function replayPassed(run: RunResult): boolean {
  return run.summary.unexpected === 0 && run.scenarios.every((s) => s.status === 'passed')
}

/** A scenario whose HTTP steps expect nothing of the parts of answers priced from gas. */
function withoutPricedMatchers(scenario: LoadedScenario): LoadedScenario {
  const steps = scenario.steps.map((step) => {
    if (!('http' in step) || !step.expect.body) return step
    const body = Object.fromEntries(
      Object.entries(step.expect.body).filter(([path]) => !isPricedPointer(path)),
    )
    return { ...step, expect: { ...step.expect, body } }
  })
  return { ...scenario, steps }
}

const KEY_PLACEHOLDER = /^\$\{key\.(0x[0-9a-fA-F]{40})\}$/

/**
 * Reads a recorded scenario file and fills in the private keys it names as `${key.<address>}`;
 * throws when one is not given.
 */
async function loadRecordedScenario(file: string, keys: Record<string, Hex>): Promise<LoadedScenario> {
  const text = await readFile(file, 'utf8')
  const shown = relative(process.cwd(), file)
  const parsed = parseScenario(text, shown)
  if (!parsed.scenario) throw new ScenarioFileError(parsed.problems)
  const byAddress = new Map(Object.entries(keys).map(([address, key]) => [address.toLowerCase(), key]))
  const missing = new Set<Address>()
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const match = KEY_PLACEHOLDER.exec(value)
      if (!match?.[1]) return value
      const key = byAddress.get(match[1].toLowerCase())
      if (!key) missing.add(match[1] as Address)
      return key ?? value
    }
    if (Array.isArray(value)) return value.map(fill)
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]))
    return value
  }
  const filled = fill(parsed.scenario) as typeof parsed.scenario
  if (missing.size > 0)
    throw new ReplayError(`The recording needs the private key of ${[...missing].join(', ')}.`, {
      metaMessages: ['Those signers are not devnet accounts: pass --key ADDRESS=PRIVATE_KEY for each.'],
    })
  return { ...filled, pack: 'recorded', file: shown }
}
