/**
 * The text of `JSON.stringify(value, null, 2)`, byte for byte, made faster for a value that holds
 * the same object many times: a report, where every check of a step holds its step's `exchange`
 * (~4.8 MB of a ~7 MB report.json is exchanges written again for each check).
 *
 * Plain objects and arrays above `walkDepth` are written here, in `JSON.stringify`'s order and
 * layout; every value at `walkDepth` (and any other value: a string, a number, a Date...) goes to
 * `JSON.stringify` itself, and an object's text is made once and reused wherever it appears again
 * at the same indentation. `JSON.stringify`'s newlines are all structural (a newline in a string is
 * escaped), so the text of a nested value is its own text with each line indented further.
 *
 * One difference no report can see: a value with `toJSON` below the walked levels is given `''`
 * as its key, not its property name (as `JSON.stringify(value)` would; a Date ignores it).
 */
export function stringifyShared(value: unknown, walkDepth: number): string | undefined {
  const memo = new WeakMap<object, { indent: string; text: string | undefined }>()
  const leaf = (item: unknown, indent: string): string | undefined => {
    if (item === null || typeof item !== 'object') return JSON.stringify(item, null, 2)
    const known = memo.get(item)
    if (known?.indent === indent) return known.text
    const text = JSON.stringify(item, null, 2)
    const indented = indent === '' ? text : text?.replaceAll('\n', `\n${indent}`)
    memo.set(item, { indent, text: indented })
    return indented
  }
  const write = (item: unknown, indent: string, depth: number): string | undefined => {
    if (depth >= walkDepth || !isPlain(item)) return leaf(item, indent)
    const inner = `${indent}  `
    const parts: string[] = []
    if (Array.isArray(item)) {
      // A for loop, not map: a hole is null, as JSON.stringify writes it.
      for (let index = 0; index < item.length; index++)
        parts.push(write(item[index], inner, depth + 1) ?? 'null')
      return parts.length === 0 ? '[]' : `[\n${inner}${parts.join(`,\n${inner}`)}\n${indent}]`
    }
    const record = item as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const text = write(record[key], inner, depth + 1)
      if (text !== undefined) parts.push(`${JSON.stringify(key)}: ${text}`)
    }
    return parts.length === 0 ? '{}' : `{\n${inner}${parts.join(`,\n${inner}`)}\n${indent}}`
  }
  return write(value, '', 0)
}

/** An array, or an object of Object's own prototype (or none), without `toJSON`: JSON.stringify writes its keys. */
function isPlain(item: unknown): item is object {
  if (item === null || typeof item !== 'object') return false
  if (typeof (item as { toJSON?: unknown }).toJSON === 'function') return false
  const prototype = Object.getPrototypeOf(item)
  return Array.isArray(item)
    ? prototype === Array.prototype
    : prototype === Object.prototype || prototype === null
}
