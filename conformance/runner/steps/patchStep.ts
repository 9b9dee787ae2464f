import { BaseError } from '../../../spec/BaseError'
import type { PatchStep } from '../../scenario/schema'
import { interpolate } from '../interpolate'
import type { StepRun } from './stepRun'

/** Thrown when a patch names a JSON pointer the value does not have. */
export class PatchPathError extends BaseError {
  override name = 'Conformance.PatchPathError'
}

/** `patch`: captures a copy of a value with the fields at some JSON pointers replaced. */
export async function patchStep(step: PatchStep, run: StepRun): Promise<void> {
  const patch = interpolate(step.patch, run.vars)
  const copy = structuredClone(patch.value)
  for (const [pointer, value] of Object.entries(patch.set)) setPointer(copy, pointer, value)
  run.vars[step.captureAs] = copy
}

/**
 * Sets the value at a JSON pointer of an object or array; the parent must exist (a new field of
 * an object is added, e.g. `/options` of a signed intentOp; an array's index must exist).
 */
function setPointer(root: unknown, pointer: string, value: unknown): void {
  const parts = pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  let node = root
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1
    const newField = last && typeof node === 'object' && node !== null && !Array.isArray(node)
    if (typeof node !== 'object' || node === null || (!(part in node) && !newField))
      throw new PatchPathError(`patch: ${pointer} does not exist (no "${part}")`)
    if (last) (node as Record<string, unknown>)[part] = value
    else node = (node as Record<string, unknown>)[part]
  }
}
