import type { WebhookStep } from '../../scenario/schema'
import { captureValues } from '../captures'
import { interpolate } from '../interpolate'
import { applyMatcher, readPath } from '../matchers'
import { NotApplicableError } from '../notApplicableError'
import type { ReceivedWebhook } from '../webhookReceiver'
import { type StepRun, seconds } from './stepRun'

/**
 * `webhook`: waits for an event of a type (matching `where`) in the scenario's inbox, then
 * checks its signature header and body, and captures from its body.
 */
export async function webhookStep(step: WebhookStep, run: StepRun): Promise<void> {
  const { context, vars, check, inboxId } = run
  const spec = step.webhook.spec ?? run.scenario.spec
  const expectation = interpolate(step.webhook, vars)
  if (!context.receiver || !inboxId)
    throw new NotApplicableError('no webhook receiver reachable by the target')
  const waitStarted = Date.now()
  const timeout = Math.min(expectation.withinSeconds * 1000, Math.max(0, run.deadline - waitStarted))
  const picked = (h: ReceivedWebhook) =>
    Object.entries(expectation.where ?? {}).every(
      ([path, matcher]) => applyMatcher(readPath(h.json, path), matcher, { document: h.json }).ok,
    )
  const typeOf = (h: ReceivedWebhook) => readPath(h.json, '/type').value
  const contradicting = (h: ReceivedWebhook) =>
    expectation.contradictedBy?.includes(String(typeOf(h))) === true && picked(h)
  // The awaited event, or one that decides the other way (its wait would be for nothing).
  const first = await context.receiver.waitFor(
    inboxId,
    (h) => (typeOf(h) === expectation.type && picked(h)) || contradicting(h),
    timeout,
  )
  const hook = first && !contradicting(first) ? first : undefined
  const received = context.receiver.received(inboxId).map(typeOf)
  const wanted = `a ${expectation.type} event${expectation.where ? ` where ${JSON.stringify(expectation.where)}` : ''}`
  check(
    `webhook ${expectation.type}`,
    hook !== undefined,
    {
      expected: `${wanted} within ${expectation.withinSeconds}s`,
      actual: received.length ? `received: ${received.join(', ')}` : 'nothing received',
      message:
        first && !hook
          ? `a ${String(typeOf(first))} event arrived for it instead, which rules out ${wanted}`
          : hook
            ? undefined
            : `no ${expectation.type} event in ${seconds(Date.now() - waitStarted)}${
                timeout < expectation.withinSeconds * 1000
                  ? `: the scenario's time limit ended the wait before its ${expectation.withinSeconds} s`
                  : ''
              }`,
    },
    spec,
  )
  if (hook === undefined) return
  const signed = hook.signature === expectation.signature
  check(
    `webhook ${expectation.type} signature`,
    signed,
    {
      expected: expectation.signature,
      actual: hook.signature,
      message: signed
        ? undefined
        : `X-Webhook-Signature is ${hook.signature} (header: ${String(hook.headers['x-webhook-signature'] ?? 'none')})`,
    },
    spec,
  )
  for (const [path, matcher] of Object.entries(expectation.body ?? {})) {
    const read = readPath(hook.json, path)
    const outcome = applyMatcher(read, matcher, { document: hook.json })
    check(
      `webhook body ${path}`,
      outcome.ok,
      {
        expected: matcher,
        actual: read.value,
        message: outcome.ok ? undefined : `${path} ${outcome.message}`,
      },
      spec,
    )
  }
  // A path the event lacks captures undefined rather than failing: the checks above judge the event.
  captureValues(vars, step.capture, (path) => ({ found: true, value: readPath(hook.json, path).value }))
}
