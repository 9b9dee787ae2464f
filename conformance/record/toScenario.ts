import type { Address } from 'viem'
import type { Matcher } from '../scenario/httpStepSchema'
import { Scenario } from '../scenario/schema'
import { chainEventStep } from './chainEventStep'
import { createDraft, type Draft, placeholder, push, register, type Step } from './draft'
import { groupEvents } from './groupEvents'
import { httpExchangeSteps } from './httpExchangeStep'
import type { Recording } from './recording'
import { webhookEventStep } from './webhookEventStep'

/** Parameters of {@link toScenario}. */
export type ToScenarioParameters = {
  /** The scenario id (lower-case letters, digits, dots and dashes). */
  id: string
  title?: string | undefined
  /** The most body matchers one step gets (default 60); the rest of a large answer is left to its schema. */
  maxBodyMatchers?: number | undefined
  /**
   * Each step as soon as it is made, with its comment (when it happened, how long the answer
   * took), without its captures: a step's captures are known only once a later step uses them,
   * and the result's `captures` has them by step index (a writer adds each as the step's last key).
   */
  onStep?: ((step: Record<string, unknown>, comment: string) => void | Promise<void>) | undefined
}

/** What a pass over a recording found: the scenario's head and what its file's header says. */
export type ToScenarioReturnType = {
  /** The scenario in the pack format without its steps (input form: defaults are left out). */
  scenario: Record<string, unknown>
  /** How many steps it has. */
  steps: number
  /** The captures each step needs (`capture`, its last key), by step index. */
  captures: Map<number, Record<string, string>>
  /**
   * The list elements each step's client picked (`choose`, written beside `capture`), by step
   * index: the route a client signed, by its content.
   */
  choices: Map<number, Record<string, Record<string, Matcher>>>
  /** What a reader of the file should know (keys needed, what was not replayable). */
  notes: string[]
  /** What the session's own fault requests did (`step 3 enables …`), for the header. */
  faultChanges: string[]
  /** Addresses whose private key the replay needs (`--key ADDRESS=KEY`), as `${key.<address>}`. */
  keysNeeded: Address[]
}

/**
 * Turns a recording into a scenario of the packs' format, in passes over its events: one step
 * per exchange (consecutive identical polls become one polling step that ends on a final status),
 * volatile values (ids, nonces, signatures, hashes, timestamps) as captures and `${…}`
 * references, each answer as expectations on its status, the spec schema of its route (or the
 * error envelope) and its stable fields; the route a client picked as a choice by content.
 * Signatures the client made over server data become `sign` / `signIntentOp` steps with the
 * devnet account's key, or with `${key.<address>}` when the signer is not a devnet account.
 * Transactions sent through the RPC proxies become chain steps; webhooks the target delivered
 * become webhook expectations. A deposit-processor configuration the key had when recording
 * began is set up again by a first step.
 *
 * Memory stays bounded whatever the recording's length: events are read from the journal one at a
 * time and each step is handed to `onStep` as soon as it is made.
 *
 * @example
 * const { scenario, captures } = await toScenario(recording, { id: 'recorded.wrong-status', onStep: write })
 */
export async function toScenario(
  recording: Recording,
  parameters: ToScenarioParameters,
): Promise<ToScenarioReturnType> {
  const draft = createDraft(recording, {
    maxMatchers: parameters.maxBodyMatchers ?? 60,
    onStep: parameters.onStep,
  })
  const setup = depositSetupStep(draft)
  if (setup) await push(draft, setup, 'the deposit-processor configuration the key had when recording began')
  for await (const group of groupEvents(recording)) {
    if (group.kind === 'http') {
      for (const { step, comment } of await httpExchangeSteps(draft, group)) await push(draft, step, comment)
    } else if (group.kind === 'chain') {
      const step = await chainEventStep(draft, group.event)
      if (!step) continue
      draft.usesChains = true
      const stepIndex = draft.emitted
      await push(
        draft,
        step,
        `${seconds(group.event.at)}: ${group.event.method} on chain ${group.event.chainId}`,
      )
      if (group.event.hash)
        register(draft, { stepIndex, kind: 'chain', pointer: 'hash', value: group.event.hash })
    } else {
      const step = webhookEventStep(draft, group.event)
      if (!step) continue
      draft.usesWebhook = true
      await push(draft, step, `${seconds(group.event.at)}: delivered, signature ${group.event.signature}`)
    }
  }
  return finish(draft, parameters)
}

/** The scenario's head, checked, and what the pass found. */
function finish(draft: Draft, parameters: ToScenarioParameters): ToScenarioReturnType {
  const { recording } = draft
  if (draft.emitted === 0) throw new Error('The recording holds no exchange to replay.')
  const capabilities = [...(draft.usesChains ? ['chains'] : []), ...(draft.usesWebhook ? ['webhooks'] : [])]
  const scenario: Record<string, unknown> = {
    id: parameters.id,
    title:
      parameters.title ??
      `Session recorded against ${recording.target} on ${recording.startedAt.slice(0, 10)}`,
    spec: 'Recorded session (docs/record-replay.md): every step behaves as recorded',
    ...(capabilities.length > 0 && { requires: { capabilities } }),
  }
  // The head checked with a stand-in step (each step was checked as it was made).
  const parsed = Scenario.safeParse({ ...scenario, steps: [{ wait: 0 }] })
  if (!parsed.success)
    throw new Error(
      `The recording makes no valid scenario: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    )
  const notes = [...draft.noteSet]
  if (draft.notesLeftOut > 0) notes.push(`… and ${draft.notesLeftOut} more notes like these.`)
  return {
    scenario,
    steps: draft.emitted,
    captures: draft.captures,
    choices: draft.choices,
    notes,
    faultChanges: draft.faultChanges,
    keysNeeded: [...draft.keysNeeded],
  }
}

/**
 * The key's deposit-processor configuration when recording began, set up again (the replay's
 * target starts without it): its webhook goes to the runner's inbox with the runner's secret.
 */
function depositSetupStep(draft: Draft): Step | undefined {
  const config = draft.recording.chainState?.depositSetup
  if (!config) return undefined
  const hasWebhook = typeof config.webhookUrl === 'string' && config.webhookUrl.length > 0
  const isEmpty = (value: unknown) =>
    typeof value !== 'object' || value === null || Object.keys(value).length === 0
  // A key that never set the processor up reads back its defaults: nothing to set up again.
  if (!hasWebhook && isEmpty(config.sponsorship) && isEmpty(config.depositWhitelist)) return undefined
  if (hasWebhook) draft.usesWebhook = true
  const params: Record<string, unknown> = {
    ...(hasWebhook && {
      webhookUrl: placeholder('webhook.url'),
      webhookSecret: placeholder('webhook.secret'),
    }),
    depositWhitelist: config.depositWhitelist ?? {},
    sponsorship: config.sponsorship ?? {},
    maxPriceDeviationBps: config.maxPriceDeviationBps ?? null,
  }
  return {
    name: 'set up the deposit processor as it was when recording began',
    http: { method: 'POST', path: '/deposit-processor/setup', version: 'blanc', body: { params } },
    expect: { status: 200 },
  }
}

const seconds = (ms: number) => `+${(ms / 1000).toFixed(3)}s`
