import type { ControlAnswer } from '../../spec/controlClient'
import { readPath } from './matchers'
import type { ScenarioContext } from './scenarioContext'
import { sendRequest } from './sendRequest'

export type { ControlAnswer }

/** How long a control call may take, as the contract's control client (spec/controlClient.ts) allows. */
const CONTROL_TIMEOUT_MS = 10_000

/**
 * One call of the target's control API, answered as it came: the same request as the contract's
 * control client (spec/controlClient.ts: the path resolved against the target's origin, the run's
 * key, a JSON body), sent through sendRequest.ts as every other request of a run is (node:http,
 * or its lean loopback client for the run's own simulator), rather than the global fetch (loading undici cost the runner 30-60 ms of
 * CPU, and each fetch more than a node:http request).
 */
async function control(
  context: ScenarioContext,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<ControlAnswer> {
  const headers: Record<string, string> = { 'x-api-key': context.apiKey }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await sendRequest({
    method,
    url: new URL(path, context.target).toString(),
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    timeoutMs: CONTROL_TIMEOUT_MS,
    ownServer: context.ownSimulator,
  })
  // fetch's text() drops a byte-order mark: so does this.
  return { status: response.status, text: response.text.replace(/^\uFEFF/, '') }
}

/** Posts a JSON body to a devnet control endpoint (`/_devnet/clock/advance`, `/_devnet/faults`), answered as it came. */
export async function postControl(
  context: ScenarioContext,
  path: string,
  body: unknown,
): Promise<ControlAnswer> {
  return control(context, 'POST', path, body)
}

/** The target's devnet clock (its manifest), unix seconds; the runner's clock when the manifest has none. */
export async function targetNow(context: ScenarioContext): Promise<number> {
  // Read loosely: a target's manifest need not be the simulator's whole one.
  const { text } = await control(context, 'GET', '/_devnet/manifest')
  const now = readPath(JSON.parse(text), '/clock/now').value
  return typeof now === 'number' ? now : Date.now() / 1000
}
