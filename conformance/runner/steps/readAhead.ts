import type { ChainStep, Step } from '../../scenario/schema'
import { type ChainActionResult, runChainAction } from '../chainActions'
import { interpolate } from '../interpolate'
import { capturedBy, namesAny } from '../stepNames'
import type { StepRun } from './stepRun'

/** A chain step that only reads (a balance, a contract's view). */
type Read = Extract<ChainStep['chain'], { action: 'readBalance' | 'readContract' }>

/** Reads made ahead, by the scenario run (its variables) and the step they are for. */
const ahead = new WeakMap<object, Map<Step, { key: string; result: Promise<ChainActionResult> }>>()

/** A chain id as a number, also when an answer wrote it as CAIP-2 (`eip155:8453`). */
export function chainIdOf(value: number | string): number | string {
  const caip2 = typeof value === 'string' ? /^eip155:(\d+)$/.exec(value) : null
  return caip2 ? Number(caip2[1]) : value
}

const isRead = (step: Step): step is ChainStep & { chain: Read } =>
  'chain' in step && (step.chain.action === 'readBalance' || step.chain.action === 'readContract')

/**
 * The first read of a read step (`readBalance`, `readContract`; interpolated), with the reads of
 * the read steps right after it started in the same moment, so that the transport sends them in
 * one JSON-RPC batch (settlement.alps-destination-executions checks nine in a row: one round trip
 * instead of nine). A read made ahead is used by its step only as the step asks it (the same
 * interpolated action); none is made for a step after a non-read step, one with `when`, or one that
 * names what an earlier one of them captures. Nothing runs between them but their checks, so a read
 * made ahead is as fresh as one made when its step comes, unless a step waited in between: a
 * balance read again (`withinSeconds`) calls {@link forgetReadsAhead}.
 */
export function firstRead(step: ChainStep, action: Read, run: StepRun): Promise<ChainActionResult> {
  const made = ahead.get(run.vars)?.get(step)
  if (made) {
    ahead.get(run.vars)?.delete(step)
    if (made.key === JSON.stringify(action)) return made.result
  }
  const result = runChainAction(run.context.caps, action)
  readAhead(step, run)
  return result
}

/** Drops the reads made ahead of this scenario run: a step waited, they may be stale. */
export function forgetReadsAhead(run: StepRun): void {
  ahead.delete(run.vars)
}

function readAhead(step: ChainStep, run: StepRun): void {
  const steps = run.scenario.steps
  const index = steps.indexOf(step)
  if (index < 0) return
  const captured = new Set([...capturedBy(step), ...captureAsOf(step)])
  const reads = new Map<Step, { key: string; result: Promise<ChainActionResult> }>()
  for (const next of steps.slice(index + 1)) {
    if (!isRead(next) || next.when !== undefined || namesAny(next, captured)) break
    let action: Read
    try {
      action = interpolate(next.chain, run.vars)
    } catch {
      break
    }
    action.chainId = chainIdOf(action.chainId)
    const result = runChainAction(run.context.caps, action)
    // Not read if its step never comes (a failed check stops the scenario): its error with it.
    result.catch(() => {})
    reads.set(next, { key: JSON.stringify(action), result })
    for (const name of [...capturedBy(next), ...captureAsOf(next)]) captured.add(name)
  }
  if (reads.size > 0) ahead.set(run.vars, reads)
}

const captureAsOf = (step: Step): string[] => {
  const name = 'chain' in step ? (step.chain as { captureAs?: unknown }).captureAs : undefined
  return typeof name === 'string' ? [name] : []
}
