import { randomUUID } from 'node:crypto'

/**
 * `JSON.stringify(report, null, 2)`, the same text byte for byte, with each check's `exchange`
 * serialized once per object: every check of a step holds its step's one exchange (~4.8 MB of a
 * ~7 MB report.json is exchanges written again for each check).
 *
 * The report is serialized by JSON.stringify with each exchange replaced by a placeholder
 * string (`token` and a number); each placeholder is then replaced by the exchange's own
 * JSON.stringify text, its lines indented as the placeholder's line (JSON.stringify's newlines
 * are all structural: a newline in a string is escaped). Only plain objects are copied to put the
 * placeholders in (a value with `toJSON`, or of a class, is left to JSON.stringify as it is).
 * Native JSON.stringify does the work: a walk of the report in JavaScript, run once per process
 * and so never optimized, was slower than serializing it all.
 *
 * @param token A text no report string holds, found by the count: if the text holds it more
 *   often than there are placeholders (a string of the report has it), the report is
 *   serialized whole instead (the same text, slower).
 */
export function stringifyReport(report: object, token?: string): string {
  return reportParts(report, token).join('')
}

/**
 * The UTF-8 bytes of `stringifyReport(report)` and a newline, for a file: each text repeated in the
 * report (an exchange) is encoded once, and no 7 MB string is made (with one character above
 * U+00FF, as a report has, V8 holds such a string as two bytes a character).
 */
export function reportBytes(report: object, token?: string): Buffer {
  const encoded = new Map<string, Buffer>()
  const buffers = reportParts(report, token).map((part) => {
    let bytes = encoded.get(part)
    if (bytes === undefined) {
      bytes = Buffer.from(part)
      encoded.set(part, bytes)
    }
    return bytes
  })
  return Buffer.concat([...buffers, Buffer.from('\n')])
}

/**
 * The text of the report in parts (joined: stringifyReport): an exchange's text is the same
 * string wherever it appears. The parts are cut only beside ASCII characters, so encoding them
 * one by one gives the bytes of the whole.
 */
function reportParts(report: object, token = `exchange-${randomUUID()}-`): string[] {
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
  const scenarios = (report as { scenarios?: unknown }).scenarios
  if (!isPlainObject(report) || !isPlainArray(scenarios)) return [JSON.stringify(report, null, 2)]
  const copy = {
    ...report,
    scenarios: scenarios.map((scenario) =>
      isPlainObject(scenario) && isPlainArray(scenario.checks)
        ? { ...scenario, checks: scenario.checks.map(withPlaceholder) }
        : scenario,
    ),
  }
  const pieces = JSON.stringify(copy, null, 2).split(`"${token}`)
  if (pieces.length - 1 !== placeholders) return [JSON.stringify(report, null, 2)]
  const texts = new Map<string, string>()
  const out = [pieces[0]!]
  for (let index = 1; index < pieces.length; index++) {
    const before = out[out.length - 1]!
    const line = before.slice(before.lastIndexOf('\n') + 1)
    const indent = line.slice(0, line.length - line.trimStart().length)
    const piece = pieces[index]!
    const end = piece.indexOf('"')
    const key = `${piece.slice(0, end)} ${indent}`
    let text = texts.get(key)
    if (text === undefined) {
      text = JSON.stringify(exchanges[Number(piece.slice(0, end))], null, 2).replaceAll('\n', `\n${indent}`)
      texts.set(key, text)
    }
    out.push(text, piece.slice(end + 1))
  }
  return out
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
