/**
 * Where targets put the reasons of an error: `message`, `error` (a string or an object of the
 * same kind), `code`, `details` and `errors` (arrays of strings or of objects with `message`,
 * `path`, `field`, `code`, …; or an object by field name). A rule's refusal is about the rule
 * when any of them names it, wherever the target wrote it.
 */
const ITEM_FIELDS = [
  'message',
  'path',
  'field',
  'code',
  'param',
  'property',
  'header',
  'context',
  'loc',
  'reason',
]

/**
 * Every reason an error body gives, in one text (one reason a line), for case-insensitive
 * matching; empty when it gives none.
 *
 * @example
 * errorReasons({ code: 'VALIDATION_ERROR', message: 'invalid', details: [{ path: ['preClaimExecutions', '1'] }] })
 * // 'invalid\nVALIDATION_ERROR\npreClaimExecutions.1'
 */
export function errorReasons(json: unknown): string {
  const out: string[] = []
  collect(json, out, 0)
  return out.join('\n')
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
    return value.join('.')
  return undefined
}

function collect(node: unknown, out: string[], depth: number): void {
  if (depth > 4 || typeof node !== 'object' || node === null) return
  if (Array.isArray(node)) {
    for (const item of node) collectItem(item, out, depth + 1)
    return
  }
  const body = node as Record<string, unknown>
  for (const field of ['message', 'code', 'error_description', 'detail', 'title']) {
    const value = text(body[field])
    if (value !== undefined) out.push(value)
  }
  nested(body, out, depth)
}

/** The reasons an object nests: its `error`, `details`, `errors` and `issues`. */
function nested(body: Record<string, unknown>, out: string[], depth: number): void {
  if (typeof body.error === 'string') out.push(body.error)
  else collect(body.error, out, depth + 1)
  for (const field of ['details', 'errors', 'issues']) {
    const list = body[field]
    if (Array.isArray(list)) for (const item of list) collectItem(item, out, depth + 1)
    else if (typeof list === 'string') out.push(list)
    else if (typeof list === 'object' && list !== null)
      // By field name ({ fieldErrors: { amount: ['too large'] } } or { amount: 'too large' }).
      for (const [key, value] of Object.entries(list)) {
        out.push(key)
        const own = text(value)
        if (own !== undefined) out.push(own)
        else collect(value, out, depth + 1)
      }
  }
}

function collectItem(item: unknown, out: string[], depth: number): void {
  const own = text(item)
  if (own !== undefined) return void out.push(own)
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return
  for (const field of ITEM_FIELDS) {
    const value = text((item as Record<string, unknown>)[field])
    if (value !== undefined) out.push(value)
  }
  const { context } = item as { context?: unknown }
  // alps puts the code, path or header of an error in its `context`.
  if (typeof context === 'object' && context !== null && !Array.isArray(context))
    collectItem(context, out, depth + 1)
  nested(item as Record<string, unknown>, out, depth)
}
