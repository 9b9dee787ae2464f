import { readPath } from './matchers'
import type { ScenarioContext } from './scenarioContext'

/** The answer of a control API call: its status and raw body. */
export type ControlAnswer = { status: number; text: string }

/** Posts a JSON body to a devnet control endpoint (`/_devnet/clock/advance`, `/_devnet/faults`). */
export async function postControl(
  context: ScenarioContext,
  path: string,
  body: unknown,
): Promise<ControlAnswer> {
  const response = await fetch(new URL(path, context.target), {
    method: 'POST',
    headers: { 'x-api-key': context.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  })
  const text = await response.text()
  return { status: response.status, text }
}

/** The target's devnet clock (its manifest), unix seconds; the runner's clock when the manifest has none. */
export async function targetNow(context: ScenarioContext): Promise<number> {
  const response = await fetch(new URL('/_devnet/manifest', context.target), {
    headers: { 'x-api-key': context.apiKey },
    signal: AbortSignal.timeout(10_000),
  })
  const now = readPath(await response.json(), '/clock/now').value
  return typeof now === 'number' ? now : Date.now() / 1000
}
