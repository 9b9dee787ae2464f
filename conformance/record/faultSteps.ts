import type { Draft } from './draft'
import { tryJson } from './groupEvents'

/**
 * Whether an exchange is the control API's fault switch (`GET` / `POST /_devnet/faults`).
 *
 * @example
 * isFaultsRequest('POST', '/_devnet/faults') // true
 */
export function isFaultsRequest(method: string, path: string): boolean {
  return path.replace(/\/+$/, '') === '/_devnet/faults' && (method === 'GET' || method === 'POST')
}

/**
 * The expectation of a fault-switch answer at replay, and the draft's account of the faults.
 * The replay does not enable the faults that were on when recording began (the file's header
 * says so), so its target's `enabled` list holds only what the session's own requests enabled
 * and did not disable: the step expects that list, not the recorded one. Undefined for an answer
 * that is not the fault list (an error), which is expected as recorded.
 *
 * @example
 * const body = faultExpectation(draft, '{"enable":["intents.accept-duplicate"]}', answer, 4)
 */
export function faultExpectation(
  draft: Draft,
  requestBody: string | undefined,
  answer: unknown,
  stepIndex: number,
): Record<string, unknown> | undefined {
  const recorded = (answer as { enabled?: unknown })?.enabled
  if (!Array.isArray(recorded) || !recorded.every((name) => typeof name === 'string')) return undefined
  const request = requestBody === undefined ? undefined : tryJson(requestBody)
  const asked = (request?.ok ? request.value : {}) as { enable?: unknown; disable?: unknown; clear?: unknown }
  const names = (value: unknown) => (Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [])
  const step = `step ${stepIndex + 1}`
  if (asked.clear === true) {
    draft.faults.clear()
    draft.faultChanges.push(`${step} clears every fault`)
  }
  for (const name of names(asked.disable)) {
    draft.faults.delete(name)
    draft.faultChanges.push(`${step} disables ${name}`)
  }
  for (const name of names(asked.enable)) {
    draft.faults.add(name)
    draft.faultChanges.push(`${step} enables ${name}`)
  }
  // The target's order (the recorded one), then any the recording did not list.
  const expected = [
    ...recorded.filter((name) => draft.faults.has(name)),
    ...[...draft.faults].filter((name) => !recorded.includes(name)),
  ]
  return { '/enabled': { equals: expected } }
}
