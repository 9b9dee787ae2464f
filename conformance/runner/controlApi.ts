import { type ControlAnswer, createControlClient } from '../../spec/controlClient'
import { readPath } from './matchers'
import type { ScenarioContext } from './scenarioContext'

export type { ControlAnswer }

/** The contract's control client for a scenario's target (spec/controlClient.ts). */
const clientOf = (context: ScenarioContext) =>
  createControlClient({ baseUrl: context.target, apiKey: context.apiKey })

/** Posts a JSON body to a devnet control endpoint (`/_devnet/clock/advance`, `/_devnet/faults`), answered as it came. */
export async function postControl(
  context: ScenarioContext,
  path: string,
  body: unknown,
): Promise<ControlAnswer> {
  return clientOf(context).request('POST', path, body)
}

/** The target's devnet clock (its manifest), unix seconds; the runner's clock when the manifest has none. */
export async function targetNow(context: ScenarioContext): Promise<number> {
  // Read loosely: a target's manifest need not be the simulator's whole one.
  const { text } = await clientOf(context).request('GET', '/_devnet/manifest')
  const now = readPath(JSON.parse(text), '/clock/now').value
  return typeof now === 'number' ? now : Date.now() / 1000
}
