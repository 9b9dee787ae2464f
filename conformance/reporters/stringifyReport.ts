import { randomUUID } from 'node:crypto'

/**
 * The UTF-8 bytes of `JSON.stringify(report, null, 2)` and a newline, byte for byte, with each
 * check's `exchange` serialized and encoded once per object: every check of a step holds its
 * step's one exchange (~4.8 MB of a ~7 MB report.json is exchanges written again for each check).
 *
 * The report is serialized by JSON.stringify with each exchange replaced by a placeholder string
 * (`token`) and encoded; each placeholder is then replaced by the bytes of the exchange's own
 * JSON.stringify text, its lines indented by the placeholder's depth (JSON.stringify's newlines
 * are all structural: a newline in a string is escaped). The token is ASCII, and no byte
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
export function reportBytes(
  report: object,
  token = `exchange-${randomUUID()}`,
  rendered?: ReadonlyMap<object, Buffer>,
): Buffer {
  const whole = () => Buffer.from(`${JSON.stringify(report, null, 2)}\n`)
  const placed = withPlaceholders(report, token, rendered)
  if (placed === undefined) return whole()
  const text = Buffer.from(JSON.stringify(placed.copy, null, 2))
  const marker = Buffer.from(JSON.stringify(token))
  // As few calls a placeholder as can be: this code runs once a process, never optimized.
  const parts: Buffer[] = []
  let from = 0
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, from)) {
    parts.push(text.subarray(from, at), placed.inOrder[parts.length / 2]!)
    from = at + marker.length
  }
  // Each placeholder once, in order, and nothing else holds the token: else the whole, as it was.
  if (parts.length / 2 !== placed.inOrder.length) return whole()
  parts.push(text.subarray(from), Buffer.from('\n'))
  return Buffer.concat(parts)
}

/** What a report's text holds before and after its one scenario ({@link scenarioBytes}). */
const AROUND_SCENARIO = ['{\n  "scenarios": [\n    ', '\n  ]\n}\n'] as const

/**
 * The bytes of one scenario of a report as {@link reportBytes} writes it among the report's
 * `scenarios` (each line after the first indented by 4 spaces), so that a scenario may be
 * serialized once it ends, while the run goes on, and its bytes handed to reportBytes
 * (`rendered`): they are those of the scenario as it is then, so only for one nothing changes
 * afterwards (a baseline marks checks).
 *
 * @example
 * reportBytes(report, undefined, new Map([[report.scenarios[0], scenarioBytes(report.scenarios[0])]]))
 */
export function scenarioBytes(scenario: object, token?: string): Buffer {
  const bytes = reportBytes({ scenarios: [scenario] }, token)
  return bytes.subarray(AROUND_SCENARIO[0].length, bytes.length - AROUND_SCENARIO[1].length)
}

/**
 * A copy of the report down to its checks, each plain check's plain exchange the placeholder
 * `token`, and the bytes of each placeholder's exchange in the order JSON.stringify writes them
 * (scenarios, then checks, in array order). JSON.stringify writes each copied check's `exchange`
 * at the indentation of depth 5 (report, scenarios, a scenario, its checks, a check: 10 spaces).
 * A scenario `rendered` holds is the placeholder itself, for its bytes ({@link scenarioBytes}).
 */
function withPlaceholders(report: object, token: string, rendered?: ReadonlyMap<object, Buffer>) {
  const scenarios = (report as { scenarios?: unknown }).scenarios
  if (!isPlainObject(report) || !isPlainArray(scenarios)) return undefined
  const encoded = new Map<object, Buffer>()
  const inOrder: Buffer[] = []
  const withPlaceholder = (check: unknown) => {
    if (!isPlainObject(check) || !isPlainObject(check.exchange)) return check
    let bytes = encoded.get(check.exchange)
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(check.exchange, null, 2).replaceAll('\n', `\n${' '.repeat(10)}`))
      encoded.set(check.exchange, bytes)
    }
    inOrder.push(bytes)
    return { ...check, exchange: token }
  }
  const copy = {
    ...report,
    scenarios: scenarios.map((scenario) => {
      const bytes = isPlainObject(scenario) ? rendered?.get(scenario) : undefined
      if (bytes !== undefined) {
        inOrder.push(bytes)
        return token
      }
      return isPlainObject(scenario) && isPlainArray(scenario.checks)
        ? { ...scenario, checks: scenario.checks.map(withPlaceholder) }
        : scenario
    }),
  }
  return { copy, inOrder }
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
