import type { Step } from '../scenario/schema'

// What a step captures and names, for runScenario (steps not run) and the chain reads made ahead
// (steps/readAhead.ts).

/** The variables a step captures: its `capture` names and its `captureAs`. */
export function capturedBy(step: Step): string[] {
  const names: string[] = []
  if ('capture' in step && step.capture) names.push(...Object.keys(step.capture))
  if ('captureAs' in step && typeof step.captureAs === 'string') names.push(step.captureAs)
  return names
}

/** Whether a step names one of `names` (`${name}`, or a path into it: `${name.field}`). */
export function namesAny(step: Step, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false
  for (const match of JSON.stringify(step).matchAll(/\$\{([\w-]+)[\w.-]*\}/g))
    if (names.has(match[1] as string)) return true
  return false
}
