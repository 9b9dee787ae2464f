/** Patterns of `matches`, compiled once per pattern and flags (a run applies the same ones again and again). */
const patterns = new Map<string, RegExp>()

/**
 * `new RegExp(source, flags)`, from {@link patterns}: without `g` or `y` it keeps no state
 * between tests. An invalid pattern throws as `new RegExp` does, and is not kept.
 *
 * @example
 * compiled('^0x[0-9a-f]+$', 'i').test('0xAB') // true
 */
export function compiled(source: string, flags: '' | 'i'): RegExp {
  const key = `${flags}/${source}`
  let pattern = patterns.get(key)
  if (pattern === undefined) {
    pattern = new RegExp(source, flags)
    // A scenario's patterns are a few hundred; a caller that makes up new ones stays bounded.
    if (patterns.size >= 4096) patterns.clear()
    patterns.set(key, pattern)
  }
  return pattern
}
