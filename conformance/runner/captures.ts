import type { PathRead } from './matchers'
import type { Variables } from './variables'

/** A capture whose value was not found: its variable name and where it was to be read. */
export type MissingCapture<source> = { name: string; source: source }

/**
 * Stores each capture of a step (`name → source`) as a variable, read by `read`; returns the
 * captures whose value was not found (their variables are left unset).
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
    const value = read(source)
    if (value.found) vars[name] = value.value
    else missing.push({ name, source })
  }
  return missing
}
