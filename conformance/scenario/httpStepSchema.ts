import { z } from 'zod'

/**
 * The HTTP step of the scenario format: the request, and what it expects of the response
 * (status, spec schema, matchers on body fields and headers). `schema.ts` gathers every step kind.
 */

/** A bound of a comparison matcher: a number, an integer string, or `{path}`: a value of the same document. */
const Bound = z.union([z.number(), z.string(), z.strictObject({ path: z.string() })])

/** A matcher applied to one value (a body field or a header). */
export type Matcher = {
  equals?: unknown
  matches?: string | undefined
  exists?: boolean | undefined
  absent?: true | undefined
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null' | undefined
  oneOf?: unknown[] | undefined
  /** Numeric comparisons (integer strings compared exactly); `{path}` reads the bound from the same document. */
  greaterThan?: z.infer<typeof Bound> | undefined
  atLeast?: z.infer<typeof Bound> | undefined
  lessThan?: z.infer<typeof Bound> | undefined
  atMost?: z.infer<typeof Bound> | undefined
  /** The value is the sum of the values at these paths of the same document (integers exactly, others within 1e-6; a `*` segment adds every item there). */
  sumOf?: string[] | undefined
  /** The value is a non-empty array (or object: its values) and every item satisfies these matchers (paths relative to the item). */
  each?: Record<string, Matcher> | undefined
  /** The value is a non-empty array whose items' numbers at this path never decrease (a `*` segment sums every field there). */
  ascendingBy?: string | undefined
  /**
   * The value is the USD worth of a raw token amount: amount (at a path of the same document) ÷
   * 10^decimals × price (a number or `{path}`), within 1e-6 USD (USD values are micro-USD rounded).
   */
  usdOf?: { amount: string; decimals: number; price: z.infer<typeof Bound> } | undefined
  /**
   * The value is the integer `from` changed by exactly `by` (a list is added up; negative for a
   * drop), e.g. a balance read after a settlement against the one captured before it:
   * `{from: '${before}', by: '-${amount}'}`. Integers only, compared exactly.
   */
  changedBy?: { from: z.infer<typeof Bound>; by: z.infer<typeof Bound> | z.infer<typeof Bound>[] } | undefined
}

export const Matcher: z.ZodType<Matcher> = z.lazy(() =>
  z
    .strictObject({
      equals: z.unknown().optional(),
      matches: z.string().optional(),
      exists: z.boolean().optional(),
      absent: z.literal(true).optional(),
      type: z.enum(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']).optional(),
      oneOf: z.array(z.unknown()).min(1).optional(),
      greaterThan: Bound.optional(),
      atLeast: Bound.optional(),
      lessThan: Bound.optional(),
      atMost: Bound.optional(),
      sumOf: z.array(z.string()).min(1).optional(),
      each: z.record(z.string(), Matcher).optional(),
      ascendingBy: z.string().optional(),
      usdOf: z
        .strictObject({ amount: z.string(), decimals: z.number().int().min(0).max(36), price: Bound })
        .optional(),
      changedBy: z.strictObject({ from: Bound, by: z.union([Bound, z.array(Bound).min(1)]) }).optional(),
    })
    .refine((m) => Object.values(m).some((v) => v !== undefined), {
      message:
        'a matcher needs at least one of equals, matches, exists, absent, type, oneOf, greaterThan, atLeast, lessThan, atMost, sumOf, each, ascendingBy, usdOf, changedBy',
    })
    .refine((m) => m.matches === undefined || isRegExp(m.matches), {
      message: 'matches is not a valid regex',
    }),
)

function isRegExp(source: string): boolean {
  try {
    new RegExp(source)
    return true
  } catch {
    return false
  }
}

const StatusCode = z.union([
  z.number().int().min(100).max(599),
  z.string().regex(/^[1-5]xx$/, 'a status is a code (400), a class ("4xx"), a list of them, or { not: … }'),
])
/** An expected status: a code, a class (`4xx`), a list of them, or `{not: …}`. */
export const StatusExpectation = z.union([
  StatusCode,
  z.array(StatusCode).min(1),
  z.strictObject({ not: z.union([StatusCode, z.array(StatusCode).min(1)]) }),
])
export type StatusExpectation = z.infer<typeof StatusExpectation>

export const Version = z.enum(['alps', 'blanc'])
export type Version = z.infer<typeof Version>

/** What an HTTP step expects of the response; every key becomes one check. */
const ExpectFields = {
  status: StatusExpectation.optional(),
  headers: z.record(z.string(), Matcher).optional(),
  /** A schema of `spec` by name (its `specSchemas` key). */
  schema: z.string().optional(),
  /** JSON pointer (`/errors/0/message`) or dotted path (`errors[0].message`) → matcher. */
  body: z.record(z.string(), Matcher).optional(),
  /**
   * The error's reasons, read wherever the target puts them (`message`, `error`, `code`,
   * `details[]` message/path/field, `errors[]`: conformance/runner/reasons.ts), one a line,
   * matched case-insensitively: a refusal is about the rule when its reasons name it.
   */
  reason: Matcher.optional(),
  /** Shorthand: the body is that version's error envelope, with a trace id equal to `x-trace-id`. */
  envelope: Version.optional(),
  /** The step's spec section when it differs from the scenario's. */
  spec: z.string().optional(),
  /** The step's grade when it differs from the scenario's (MUST or SHOULD). */
  level: z.enum(['MUST', 'SHOULD']).optional(),
}
export const HttpExpectAlternative = z.strictObject(ExpectFields)
export const HttpExpect = z.strictObject({
  ...ExpectFields,
  /** One check that passes when every check of at least one alternative passes. */
  anyOf: z.array(HttpExpectAlternative).min(2).optional(),
  /**
   * What the public service does beyond the spec's words, checked on the same answer at SHOULD
   * (checks named `should <check>`): e.g. the rule's refusal is MUST (`status: 4xx`, `reason`),
   * its exact status and envelope SHOULD (`should: { status: 400, envelope: blanc }`). A SHOULD
   * failure does not stop the scenario.
   */
  should: z
    .strictObject({ ...ExpectFields, anyOf: z.array(HttpExpectAlternative).min(2).optional() })
    .optional(),
})
export type HttpExpect = z.infer<typeof HttpExpect>

export const HttpStep = z.strictObject({
  name: z.string().optional(),
  http: z.strictObject({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: z.string().startsWith('/'),
    /** `default` injects the run's key; `omit` sends none; `wrong` sends a key that is not the run's. */
    apiKey: z
      .union([z.enum(['default', 'omit', 'wrong']), z.strictObject({ value: z.string() })])
      .default('default'),
    /** `alps`/`blanc` send that version; `omit` sends none; `{raw}` sends the string as given. */
    version: z.union([Version, z.literal('omit'), z.strictObject({ raw: z.string() })]).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.unknown().optional(),
    /** Sent as given (for malformed JSON); `content-type: application/json` unless headers say otherwise. */
    rawBody: z.string().optional(),
    /** Sends a valid JSON object padded to this many bytes (for size limits). */
    oversizeBytes: z.number().int().positive().optional(),
  }),
  expect: HttpExpect.default({}),
  /**
   * Send the request again until every check of `expect` passes (e.g. a status reaching
   * COMPLETED), or the time is up; the checks of the last answer are the step's.
   */
  poll: z
    .strictObject({
      timeoutSeconds: z.number().positive().default(60),
      /** The longest pause between two requests: the runner starts at 25 ms and doubles up to it. */
      intervalMs: z.number().int().positive().default(500),
      /**
       * A final state (body path → matchers, e.g. `/status: { oneOf: [FAILED, EXPIRED] }`): an
       * answer that matches them all while `expect` still fails ends the poll at once, as the
       * state will not change any more; its checks are the step's.
       */
      final: z.record(z.string(), Matcher).optional(),
    })
    .optional(),
  /**
   * The element a client picked from a list of the answer, by content (a recorded session: the
   * route it signed): its recorded place (`/routes/2`) → matchers on the element's fields
   * (`/fundingMethod`, `/cost/input/0/chainId`). The element that matches them all is read at
   * that place by this step's checks and captures, whatever order the target lists them in; when
   * none does, the step fails and says what each element offered.
   */
  choose: z
    .record(
      z.string().regex(/^(\/[^/]*)*\/\d+$/, 'a JSON pointer ending in an index'),
      z.record(z.string(), Matcher),
    )
    .optional(),
  /** name → `/json/pointer`, `dotted.path` or `header:<name>`; later steps use `${name}`. */
  capture: z.record(z.string().regex(/^[A-Za-z_][\w]*$/), z.string()).optional(),
  /**
   * A request that prepares the scenario rather than checks the target (the deposit processor's
   * configuration, whose answer the spec does not show: the later steps prove it took): why.
   * When the answer meets `expect`, the report notes it and none of the step's checks counts;
   * when it does not, the step fails as any other.
   */
  setup: z.string().min(1).optional(),
  /**
   * A request the scenario needs that the spec does not show (the public service's account
   * registration of the deposit processor): why it is needed. When the answer meets `expect`, it
   * is noted as setup; when not, the target does it some other way, so the scenario is not
   * applicable, with this reason and the answer; no check of the step counts either way.
   */
  prerequisite: z.string().min(1).optional(),
  /**
   * The step reads an endpoint the spec does not show (the public service's
   * `GET /deposit-processor/setup`): why. A missing route (404, 405, 501) makes the scenario not
   * applicable with this reason; any other answer is judged by `expect`.
   */
  needs: z.string().min(1).optional(),
})
export type HttpStep = z.infer<typeof HttpStep>
