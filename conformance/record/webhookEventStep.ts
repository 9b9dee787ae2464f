import { type Draft, note, reference, register, type Step, substituteKnown } from './draft'
import { tryJsonExact } from './groupEvents'
import type { RecordedWebhook } from './recording'
import { isIdentity, isVolatileLeaf, leaves } from './volatile'

/**
 * A webhook step for a delivery the target made: its type, its signature, a `where` of its
 * account / chain / amount fields and body matchers on the rest (volatile values as references).
 *
 * @example
 * const step = webhookEventStep(draft, event)
 */
export function webhookEventStep(draft: Draft, event: RecordedWebhook): Step | undefined {
  const json = tryJsonExact(event.body)
  const type = json.ok ? (json.value as { type?: unknown })?.type : undefined
  if (!json.ok || typeof type !== 'string') {
    note(draft, `a webhook at +${event.at} ms has no type; not replayed.`)
    return undefined
  }
  const stepIndex = draft.emitted
  const step: Step = {
    name: `the target delivers a ${type} webhook (signature ${event.signature})`,
    webhook: { type, withinSeconds: 30, signature: event.signature },
  }
  const where: Record<string, unknown> = {}
  const body: Record<string, unknown> = {}
  for (const leaf of leaves(json.value)) {
    if (leaf.pointer === '/type') continue
    const existing = draft.sources.get(String(leaf.value))
    let matcher: unknown
    if (
      existing &&
      existing.stepIndex !== stepIndex &&
      typeof existing.value === typeof leaf.value &&
      (typeof leaf.value === 'string' || typeof leaf.value === 'number')
    )
      matcher = { equals: reference(draft, existing) }
    else if (isVolatileLeaf(leaf)) {
      if (isIdentity(leaf.key, leaf.value))
        register(draft, { stepIndex, kind: 'webhook', pointer: leaf.pointer, value: leaf.value })
      continue
    } else matcher = { equals: substituteKnown(draft, leaf.value) }
    if (Object.keys(where).length < 3 && /account|address|chain|token|amount/i.test(String(leaf.key)))
      where[leaf.pointer] = matcher
    else if (Object.keys(body).length < draft.maxMatchers) body[leaf.pointer] = matcher
  }
  const hook = step.webhook as Record<string, unknown>
  if (Object.keys(where).length > 0) hook.where = where
  if (Object.keys(body).length > 0) hook.body = body
  return step
}
