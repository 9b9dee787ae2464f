import type { WebhookStep } from '../../scenario/schema'
import { captureValues } from '../captures'
import { interpolate } from '../interpolate'
import { ANYWHERE, matchAt, readPath } from '../matchers'
import { NotApplicableError } from '../notApplicableError'
import type { ReceivedWebhook } from '../webhookReceiver'
import { type StepRun, seconds } from './stepRun'

type Signature = WebhookStep['webhook']['signature']

/**
 * The event type of a webhook: its `/type` (the public service's envelope), or, when it has no
 * `/type` string, `type` itself if the body names it anywhere (the spec names the event, not
 * where its payload says so).
 */
function eventType(hook: ReceivedWebhook, type: string): string | undefined {
  const own = readPath(hook.json, '/type').value
  if (typeof own === 'string') return own
  return matchAt(hook.json, ANYWHERE, { equals: type }).outcome.ok ? type : undefined
}

/** A header in the public service's form, `sha256=<hex>`: one that does not match is wrongly signed in any reading. */
const PUBLIC_FORM = /^sha256=[0-9a-fA-F]{64}$/

/**
 * Whether a signature header is as expected. `present`: a header whatever its encoding (the spec
 * does not show it), except one in the public service's form that does not match the body with
 * the secret: that one is signed wrongly whatever else the target meant.
 */
const signatureHolds = (hook: ReceivedWebhook, expected: Signature) => {
  if (expected !== 'present') return hook.signature === expected
  const header = hook.headers['x-webhook-signature']
  const value = Array.isArray(header) ? header[0] : header
  return hook.signature === 'valid' || (hook.signature === 'invalid' && !PUBLIC_FORM.test(value ?? ''))
}

/**
 * `webhook`: waits for an event of a type (matching `where`) in the scenario's inbox, then
 * checks its signature header and body, and captures from its body; `should` checks the public
 * service's way on the same event at SHOULD.
 */
export async function webhookStep(step: WebhookStep, run: StepRun): Promise<void> {
  const { context, vars, check, inboxId } = run
  const spec = step.webhook.spec ?? run.scenario.spec
  const expectation = interpolate(step.webhook, vars)
  const level = expectation.level
  if (!context.receiver || !inboxId)
    throw new NotApplicableError('no webhook receiver reachable by the target')
  const waitStarted = Date.now()
  const timeout = Math.min(expectation.withinSeconds * 1000, Math.max(0, run.deadline - waitStarted))
  const picked = (h: ReceivedWebhook) =>
    Object.entries(expectation.where ?? {}).every(
      ([path, matcher]) => matchAt(h.json, path, matcher).outcome.ok,
    )
  const typeOf = (h: ReceivedWebhook) => eventType(h, expectation.type)
  const contradicting = (h: ReceivedWebhook) =>
    expectation.contradictedBy?.some((type) => eventType(h, type) === type) === true && picked(h)
  // The awaited event, or one that decides the other way (its wait would be for nothing).
  const first = await context.receiver.waitFor(
    inboxId,
    (h) => (typeOf(h) === expectation.type && picked(h)) || contradicting(h),
    timeout,
  )
  const hook = first && !contradicting(first) ? first : undefined
  const received = context.receiver.received(inboxId).map((h) => typeOf(h) ?? 'an event of no type')
  const wanted = `a ${expectation.type} event${expectation.where ? ` where ${JSON.stringify(expectation.where)}` : ''}`
  const contradiction =
    first && !hook ? expectation.contradictedBy?.find((type) => eventType(first, type) === type) : undefined
  check(
    `webhook ${expectation.type}`,
    hook !== undefined,
    {
      expected: `${wanted} within ${expectation.withinSeconds}s`,
      actual: received.length ? `received: ${received.join(', ')}` : 'nothing received',
      message:
        first && !hook
          ? `a ${String(contradiction)} event arrived for it instead, which rules out ${wanted}`
          : hook
            ? undefined
            : `no ${expectation.type} event in ${seconds(Date.now() - waitStarted)}${
                timeout < expectation.withinSeconds * 1000
                  ? `: the scenario's time limit ended the wait before its ${expectation.withinSeconds} s`
                  : ''
              }`,
      level,
    },
    spec,
  )
  if (hook === undefined) return
  const checkEvent = (
    prefix: string,
    signature: Signature | undefined,
    body: Record<string, NonNullable<WebhookStep['webhook']['where']>[string]> | undefined,
    grade: 'MUST' | 'SHOULD' | undefined,
    section: string,
  ) => {
    if (signature !== undefined) {
      const ok = signatureHolds(hook, signature)
      check(
        `${prefix}webhook ${expectation.type} signature`,
        ok,
        {
          expected: signature,
          actual: hook.signature,
          message: ok
            ? undefined
            : `X-Webhook-Signature is ${hook.signature} (header: ${String(hook.headers['x-webhook-signature'] ?? 'none')})`,
          level: grade,
        },
        section,
      )
    }
    for (const [path, matcher] of Object.entries(body ?? {})) {
      const { read, outcome } = matchAt(hook.json, path, matcher)
      check(
        `${prefix}webhook body ${path}`,
        outcome.ok,
        {
          expected: matcher,
          actual: path === ANYWHERE ? JSON.stringify(hook.json)?.slice(0, 300) : read.value,
          message: outcome.ok ? undefined : `${path} ${outcome.message}`,
          level: grade,
        },
        section,
      )
    }
  }
  checkEvent('', expectation.signature, expectation.body, level, spec)
  const should = expectation.should
  if (should) checkEvent('should ', should.signature, should.body, 'SHOULD', should.spec ?? spec)
  // A path the event lacks captures undefined rather than failing: the checks above judge the event.
  captureValues(vars, step.capture, (path) => ({ found: true, value: readPath(hook.json, path).value }))
}
