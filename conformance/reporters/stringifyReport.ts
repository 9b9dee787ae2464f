import { randomUUID } from 'node:crypto'

/**
 * The UTF-8 bytes of `JSON.stringify(report, null, 2)` and a newline, byte for byte, with each
 * check's `exchange` serialized and encoded once per object: every check of a step holds its
 * step's one exchange (~4.8 MB of a ~7 MB report.json is exchanges written again for each check).
 *
 * The report is serialized by JSON.stringify with each exchange replaced by a placeholder string
 * (`token` and a number) and encoded; each placeholder is then replaced by the bytes of the
 * exchange's own JSON.stringify text, its lines indented as the placeholder's line (JSON.stringify's
 * newlines are all structural: a newline in a string is escaped). The token is ASCII, and no byte
 * of a multi-byte UTF-8 character is, so a match in the bytes is a match in the text. Only plain
 * objects are copied to put the placeholders in (a value with `toJSON`, or of a class, is left to
 * JSON.stringify as it is). Native code does the work: a walk of the report in JavaScript, run once
 * per process and so never optimized, was slower than JSON.stringify of it all; and no 7 MB string
 * is made (a report has characters above U+00FF, so V8 would hold it as two bytes a character).
 *
 * @param token A text no string of the report holds, checked by the count: if the bytes hold it
 *   more often than there are placeholders (a string of the report has it), the report is
 *   serialized whole instead (the same bytes, slower).
 */
export function reportBytes(report: object, token = `exchange-${randomUUID()}-`): Buffer {
  const whole = () => Buffer.from(`${JSON.stringify(report, null, 2)}\n`)
  const placed = withPlaceholders(report, token)
  if (placed === undefined) return whole()
  const text = Buffer.from(JSON.stringify(placed.copy, null, 2))
  const marker = Buffer.from(`"${token}`)
  const encoded = new Map<string, Buffer>()
  const parts: Buffer[] = []
  let from = 0
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, from)) {
    const end = text.indexOf('"', at + marker.length)
    if (end === -1) return whole()
    let indentEnd = text.lastIndexOf('\n', at) + 1
    const lineStart = indentEnd
    while (text[indentEnd] === 0x20) indentEnd++
    const number = text.toString('latin1', at + marker.length, end)
    const key = `${number} ${indentEnd - lineStart}`
    let bytes = encoded.get(key)
    if (bytes === undefined) {
      const exchange = placed.exchanges[Number(number)]
      if (exchange === undefined) return whole()
      const indent = ' '.repeat(indentEnd - lineStart)
      bytes = Buffer.from(JSON.stringify(exchange, null, 2).replaceAll('\n', `\n${indent}`))
      encoded.set(key, bytes)
    }
    parts.push(text.subarray(from, at), bytes)
    from = end + 1
  }
  if (parts.length / 2 !== placed.placeholders) return whole()
  parts.push(text.subarray(from), Buffer.from('\n'))
  return Buffer.concat(parts)
}

/** A copy of the report down to its checks, each plain check's plain exchange a placeholder. */
function withPlaceholders(report: object, token: string) {
  const scenarios = (report as { scenarios?: unknown }).scenarios
  if (!isPlainObject(report) || !isPlainArray(scenarios)) return undefined
  const exchanges: object[] = []
  const numbers = new Map<object, number>()
  let placeholders = 0
  const withPlaceholder = (check: unknown) => {
    if (!isPlainObject(check) || !isPlainObject(check.exchange)) return check
    let number = numbers.get(check.exchange)
    if (number === undefined) {
      number = exchanges.push(check.exchange) - 1
      numbers.set(check.exchange, number)
    }
    placeholders++
    return { ...check, exchange: `${token}${number}` }
  }
  const copy = {
    ...report,
    scenarios: scenarios.map((scenario) =>
      isPlainObject(scenario) && isPlainArray(scenario.checks)
        ? { ...scenario, checks: scenario.checks.map(withPlaceholder) }
        : scenario,
    ),
  }
  return { copy, exchanges, placeholders }
}

/** An object of Object's own prototype (or none) without `toJSON`: JSON.stringify writes its own keys. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return (
    (prototype === Object.prototype || prototype === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  )
}

/** An Array (not a subclass) without `toJSON`. */
function isPlainArray(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) &&
    Object.getPrototypeOf(value) === Array.prototype &&
    !Object.hasOwn(value, 'toJSON')
  )
}
