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
      if (!v.includes('${')) return v
      const whole = /^\$\{([\w.-]+)\}$/.exec(v)
      if (whole?.[1]) return lookup(whole[1])
      return v.replace(PLACEHOLDER, (_, name: string) => {
        const found = lookup(name)
        return typeof found === 'string' ? found : JSON.stringify(found)
      })
    }
    if (typeof v !== 'object' || v === null) return v
    // A part without placeholders (most of a step: a schema name, a matcher, a body's constants)
    // is copied as is, without looking at its strings again.
    if (isConstant(v)) return copy(v)
    if (Array.isArray(v)) return v.map(walk)
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(v)) put(out, key, walk((v as Record<string, unknown>)[key]))
    return out
  }
  return walk(value) as T
}

/**
 * Whether a part of a step has no placeholder anywhere in it, remembered per object: a loaded
 * scenario's steps are interpolated again on every run and every poll, and most of their parts
 * (and all of errors.devnet-validation's 100 000-value body) have none.
 */
const constant = new WeakMap<object, boolean>()
function isConstant(v: object): boolean {
  let known = constant.get(v)
  if (known === undefined) {
    known = Object.values(v).every((x) =>
      typeof x === 'string' ? !x.includes('${') : typeof x !== 'object' || x === null || isConstant(x),
    )
    constant.set(v, known)
  }
  return known
}

/** A deep copy of plain JSON-like data (arrays, objects, primitives), as the walk makes it. */
function copy(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length)
    for (let i = 0; i < v.length; i++) out[i] = copy(v[i])
    return out
  }
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(v)) put(out, key, copy((v as Record<string, unknown>)[key]))
  return out
}

/** `out[key] = value`, also for a key named `__proto__` (an own field, as Object.fromEntries makes it). */
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true })
  else out[key] = value
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
