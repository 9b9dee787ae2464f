import type { Hex } from 'viem'
import { DevnetManifest } from '../../spec'
import { BaseError } from '../../spec/BaseError'
import { VERSION_HEADERS } from '../runner/versionHeaders'
import type { RecordedChainState } from './recording'

/** Thrown when the recorder cannot start (target unreachable, port taken, bad `--chains` file). */
export class RecorderError extends BaseError {
  override name = 'Record.RecorderError'
}

/** What the recorder learns of its target before the first exchange. */
export type TargetCapture = {
  manifest?: DevnetManifest | undefined
  manifestRaw?: unknown
  /** Everything a replay restores, when the target is an intent-devnet. */
  chainState?: RecordedChainState | undefined
  /** Why chain state could not be captured. */
  chainStateProblem?: string | undefined
  faults: string[]
}

/**
 * Asks the target what a replay needs to behave as it did: its manifest (an intent-devnet has
 * one), the faults enabled now, and (for an intent-devnet) every chain's state and gas, the clock,
 * the price table, the service's configuration (quote lifetime, swap fee, gas prices, strict versioning) and the recorded key's
 * deposit-processor configuration. A target without the control API is recorded all the same;
 * the capture says why its state could not be taken.
 *
 * @example
 * const captured = await captureTarget('http://127.0.0.1:4000', 'key')
 */
export async function captureTarget(target: string, apiKey: string): Promise<TargetCapture> {
  const headers = { 'x-api-key': apiKey }
  let response: Response
  try {
    response = await fetch(`${target}/_devnet/manifest`, { headers, signal: AbortSignal.timeout(10_000) })
  } catch (error) {
    throw new RecorderError(`The target ${target} does not answer.`, { cause: error as Error })
  }
  const text = await response.text()
  // The target's clock said `clock.now` about when its manifest answered; the capture's own
  // duration is added to it when the capture ends (the instant the recording begins).
  const manifestAt = performance.now()
  if (response.status !== 200)
    return {
      chainStateProblem: `the target has no control API (GET /_devnet/manifest answered ${response.status}), so chain state and the clock could not be captured`,
      faults: [],
    }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    raw = undefined
  }
  const parsed = DevnetManifest.safeParse(raw)
  if (!parsed.success)
    return {
      chainStateProblem:
        'the target answered GET /_devnet/manifest with something that is not a devnet manifest, so chain state and the clock could not be captured',
      faults: [],
    }
  const manifest = parsed.data
  const [faults, prices, depositSetup] = await Promise.all([
    readJson(`${target}/_devnet/faults`, { headers }).then((body) =>
      Array.isArray((body as { enabled?: unknown })?.enabled) ? (body as { enabled: string[] }).enabled : [],
    ),
    // Setting no price answers the whole table and changes nothing.
    readJson(`${target}/_devnet/prices`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ prices: {} }),
    }).then((body) => (body as { prices?: Record<string, number> } | undefined)?.prices),
    readJson(`${target}/deposit-processor/setup`, {
      headers: { ...headers, 'x-api-version': VERSION_HEADERS.blanc },
    }),
  ])
  try {
    // The simulator's chain capture, from its public entry, loaded only for an intent-devnet.
    const { captureChainState } = await import('../../simulator/index')
    const chains = await Promise.all(manifest.chains.map((c) => captureChainState(c.chainId, c.rpcUrl)))
    const { service } = manifest
    return {
      manifest,
      manifestRaw: raw,
      faults,
      chainState: {
        offsetSeconds: manifest.clock.offsetSeconds,
        now: manifest.clock.now + Math.floor((performance.now() - manifestAt) / 1000),
        chains: chains.map(({ chainId, state, gas }) => ({ chainId, state: state as Hex, gas })),
        prices,
        service: {
          quoteTtlSeconds: service.quoteTtlSeconds,
          ...(typeof service.swapFeeBps === 'number' && { swapFeeBps: service.swapFeeBps }),
          ...(service.gasPrices && { gasPrices: service.gasPrices }),
          ...(service.strictVersion && { strictVersion: true }),
          // The devnet's keys (`--mnemonic`, `--accounts`): the same signers and funded accounts.
          ...(manifest.mnemonic && { mnemonic: manifest.mnemonic, accountCount: manifest.accounts.length }),
        },
        depositSetup: depositSetup as Record<string, unknown> | undefined,
      },
    }
  } catch (error) {
    return {
      manifest,
      manifestRaw: raw,
      faults,
      chainStateProblem: `the chains' state could not be dumped (${error instanceof Error ? error.message : String(error)})`,
    }
  }
}

/** A JSON answer of the target, or undefined when it has none (not 200, not JSON, no answer). */
async function readJson(url: string, init: RequestInit): Promise<unknown> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
    return response.status === 200 ? await response.json() : undefined
  } catch {
    return undefined
  }
}
