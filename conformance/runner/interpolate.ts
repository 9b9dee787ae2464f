import { BaseError } from '../../spec/BaseError'
import type { Variables } from './variables'

/** Thrown when a step uses `${name}` and no earlier step captured `name`. */
export class UnknownVariableError extends BaseError {
  override name = 'Conformance.UnknownVariableError'
}

const PLACEHOLDER = /\$\{([\w.-]+)\}/g

/**
 * Replaces `${name}` in every string of a value. A string that is exactly one placeholder takes
 * the variable's value as is (so a captured number stays a number).
 *
 * @example
 * interpolate({ path: '/intents/${intentId}/submit' }, { intentId: '42' }) // { path: '/intents/42/submit' }
 */
export function interpolate<T>(value: T, vars: Variables): T {
  const lookup = (name: string) => {
    const nested = Object.hasOwn(vars, name) ? undefined : lookupNested(vars, name)
    if (nested) return nested.value
    if (!Object.hasOwn(vars, name))
      throw new UnknownVariableError(`Unknown variable \${${name}}.`, {
        metaMessages: [`Known: ${Object.keys(vars).sort().join(', ')}.`],
      })
    return vars[name]
  }
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = /^\$\{([\w.-]+)\}$/.exec(v)
      if (whole?.[1]) return lookup(whole[1])
      return v.replace(PLACEHOLDER, (_, name: string) => {
        const found = lookup(name)
        return typeof found === 'string' ? found : JSON.stringify(found)
      })
    }
    if (Array.isArray(v)) return v.map(walk)
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(value) as T
}

/**
 * `${a.b.0}` when no variable is named so: the longest variable name that prefixes it (`a`), then
 * the rest walked as fields and array indexes of its value, e.g. a field of a captured object.
 */
function lookupNested(vars: Variables, name: string): { value: unknown } | undefined {
  const parts = name.split('.')
  for (let cut = parts.length - 1; cut > 0; cut--) {
    const head = parts.slice(0, cut).join('.')
    if (!Object.hasOwn(vars, head)) continue
    let value: unknown = vars[head]
    for (const key of parts.slice(cut)) {
      if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined
      value = (value as Record<string, unknown>)[key]
    }
    return { value }
  }
  return undefined
}
