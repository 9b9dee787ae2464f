/**
 * The one client of the devnet's control API (`/_devnet/…`, DESIGN: devnet control API), typed by
 * the contract's schemas: the vitest and Jest setups, the testcontainers module and the
 * conformance runner all call the devnet through it.
 */
import {
  type ClockAdvanceRequest,
  DevnetManifest,
  type FaultsRequest,
  type PricesRequest,
  type RevertRequest,
} from './devnet'

/** Where the control API answers: the service's base URL and the key sent in `x-api-key`. */
export type ControlTarget = {
  baseUrl: string | URL
  apiKey: string
  /** Per request, ms (default 10 000). */
  timeoutMs?: number | undefined
}

/** A control call's answer as it came: status and raw body (what the conformance runner judges). */
export type ControlAnswer = { status: number; text: string }

/** A control call that did not answer 2xx. */
export class ControlApiError extends Error {
  override name = 'ControlApi.Error'
  readonly status: number
  readonly body: string
  constructor(method: string, path: string, answer: ControlAnswer) {
    super(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 500)}`)
    this.status = answer.status
    this.body = answer.text
  }
}

/** What {@link createControlClient} returns. */
export type ControlClient = {
  /** Any call, answered as it came (no status check): `request('POST', '/_devnet/faults', body)`. */
  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ControlAnswer>
  /** `GET /_devnet/manifest`, checked by the contract's schema. */
  manifest(): Promise<DevnetManifest>
  /** `POST /_devnet/snapshot`: every chain and the clock; resolves to the snapshot's id. */
  snapshot(): Promise<string>
  /** `POST /_devnet/revert`: every chain and the clock back to a snapshot. */
  revert(id: RevertRequest['id']): Promise<void>
  /** `POST /_devnet/clock/advance`. */
  advanceClock(seconds: ClockAdvanceRequest['seconds']): Promise<unknown>
  /** `POST /_devnet/prices`: USD price per token symbol. */
  setPrices(prices: PricesRequest['prices']): Promise<unknown>
  /** `POST /_devnet/faults`. */
  setFaults(request: FaultsRequest): Promise<unknown>
}

/**
 * A client of one devnet's control API.
 *
 * @example
 * const control = createControlClient({ baseUrl: manifest.service.baseUrl, apiKey: manifest.service.apiKey })
 * const id = await control.snapshot()
 * await control.revert(id)
 */
export function createControlClient(target: ControlTarget): ControlClient {
  const request: ControlClient['request'] = async (method, path, body) => {
    const signal = AbortSignal.timeout(target.timeoutMs ?? 10_000)
    const headers = { 'x-api-key': target.apiKey }
    const response = await fetch(
      new URL(path, target.baseUrl),
      body === undefined
        ? { method, headers, signal }
        : {
            method,
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify(body),
            signal,
          },
    )
    return { status: response.status, text: await response.text() }
  }
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
    const answer = await request(method, path, body)
    if (answer.status < 200 || answer.status > 299) throw new ControlApiError(method, path, answer)
    return answer.text === '' ? undefined : JSON.parse(answer.text)
  }
  return {
    request,
    manifest: async () => DevnetManifest.parse(await call('GET', '/_devnet/manifest')),
    snapshot: async () => ((await call('POST', '/_devnet/snapshot', {})) as { id: string }).id,
    revert: async (id) => {
      await call('POST', '/_devnet/revert', { id })
    },
    advanceClock: (seconds) => call('POST', '/_devnet/clock/advance', { seconds }),
    setPrices: (prices) => call('POST', '/_devnet/prices', { prices }),
    setFaults: (faults) => call('POST', '/_devnet/faults', faults),
  }
}
