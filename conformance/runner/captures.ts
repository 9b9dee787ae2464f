import type { PathRead } from './matchers'
import type { Variables } from './variables'

/** A capture whose value was not found: its variable name and where it was to be read. */
export type MissingCapture<source> = { name: string; source: source }

/**
 * Stores each capture of a step (`name → source`) as a variable, read by `read`; returns the
 * captures whose value was not found (their variables are left unset). A source starting with
 * `?` is optional: read without the `?`, and never reported missing (a field the spec does not
 * require; a later step can run only `when` it was captured).
 *
 * @example
 * captureValues(vars, { txHash: 'hash' }, (field) => ({ found: true, value: receipt[field] }))
 */
export function captureValues<source extends string>(
  vars: Variables,
  captures: Record<string, source> | undefined,
  read: (source: source) => PathRead,
): MissingCapture<source>[] {
  const missing: MissingCapture<source>[] = []
  for (const [name, source] of Object.entries(captures ?? {})) {
    const optional = source.startsWith('?')
    const value = read((optional ? source.slice(1) : source) as source)
    if (value.found && value.value !== null && value.value !== undefined) vars[name] = value.value
    else if (value.found && !optional) vars[name] = value.value
    else if (!optional) missing.push({ name, source })
  }
  return missing
}
