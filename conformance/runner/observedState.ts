import { ROUTES } from '../../spec/routes'
import { type DevnetStatePart, findRoute, type RouteDefinition } from '../../spec/routeTable'
import type { Step } from '../scenario/schema'

/**
 * A part of the target's state one scenario may change for every other: `prices` and `clock`
 * (each changed on its own through the control API: spec/routeTable.ts DevnetStatePart), or
 * `other`: all the rest (faults, snapshots, the quote store, how loaded it is).
 */
export type StatePart = DevnetStatePart | 'other'

/** Every part: what a change the runner cannot narrow down may touch. */
export const EVERY_PART: readonly StatePart[] = ['prices', 'clock', 'other']

/**
 * The parts of the target's state a step that makes its scenario run alone changes (see
 * schedule.ts, stepAloneReason): a clock step the clock, a control API request the part its
 * route names (`changes`, spec/routes/devnet.ts), every part when it names none (snapshot,
 * revert, the quote store) or for an oversized body (its verdict depends on how loaded the
 * target is: nothing that loads it may run beside).
 *
 * @example
 * changedBy({ clock: { advance: 5 } }) // ['clock']
 */
export function changedBy(step: Step): readonly StatePart[] {
  if ('clock' in step) return ['clock']
  if (!('http' in step)) return EVERY_PART
  const route = routeOf(step.http.method, step.http.path)
  return route?.changes && step.http.oversizeBytes === undefined ? [route.changes] : EVERY_PART
}

/**
 * The parts of the target's state a scenario's verdict may depend on, judged from its steps
 * (steps, then cleanup; `texts` each as JSON) and the route table, for any target: `prices`
 * unless every request goes to a route independent of them (`independentOf`,
 * spec/routeTable.ts), `clock` likewise, and unless it has no step but requests and waits, nor
 * a `${now}` (chain time moves with the clock, signatures carry deadlines, deliveries wait out
 * retry times); `other` always. A request to a path outside the table may depend on every
 * part. A scenario of requests the target must refuse for what they are observes nothing
 * (schedule.ts, mayRunBesideAlone): not asked here.
 *
 * @example
 * observedParts(outbox.steps, texts) // ['clock', 'other']: the outbox retries by the clock; no request is priced
 */
export function observedParts(steps: readonly Step[], texts: readonly string[]): readonly StatePart[] {
  const parts = new Set<StatePart>(['other'])
  for (const step of steps) {
    if ('wait' in step || 'patch' in step) continue
    if (!('http' in step)) {
      parts.add('clock')
      continue
    }
    const independent = routeOf(step.http.method, step.http.path)?.independentOf ?? []
    for (const part of ['prices', 'clock'] as const) if (!independent.includes(part)) parts.add(part)
  }
  if (texts.some((text) => text.includes('${now'))) parts.add('clock')
  return EVERY_PART.filter((part) => parts.has(part))
}

/** The route of the table a request goes to ({@link findRoute}), remembered: the packs send ~400 requests to ~80 paths. */
function routeOf(method: string, path: string): RouteDefinition | undefined {
  const key = `${method} ${path}`
  if (!routes.has(key)) routes.set(key, findRoute(ROUTES, method, path)?.route)
  return routes.get(key)
}

const routes = new Map<string, RouteDefinition | undefined>()
