import { type SpecSchemaName, specSchemas } from '../../spec'
import type { HttpExpect } from '../scenario/schema'
import { applyMatcher, MISSING_ROUTE_STATUSES, matchAt, matchStatus, namesStatus, readPath } from './matchers'
import { errorReasons } from './reasons'
import { safeParseOnce } from './safeParseOnce'
import type { HttpResponse } from './sendRequest'

/** One check an expectation made on a response. */
export type Evaluation = {
  name: string
  ok: boolean
  expected?: unknown
  actual?: unknown
  message?: string | undefined
}

/** An expectation of an HTTP step, or one of its `anyOf` alternatives. */
export type Expectation = Omit<HttpExpect, 'anyOf'>

const isSpecSchemaName = (name: string): name is SpecSchemaName => Object.hasOwn(specSchemas, name)

/**
 * Every check an expectation makes on a response, in a fixed order. A check must fail on a
 * wrong target, so the status check passes only when the body proves the rule too (the envelope,
 * the schema and the positive body matchers of the same expectation), and an `absent` matcher
 * only on a non-empty JSON object whose status holds: `200 {}` or `404 {}` prove nothing.
 */
export function evaluate(expect: Expectation, response: HttpResponse): Evaluation[] {
  const envelope = expect.envelope === undefined ? undefined : evaluateEnvelope(expect.envelope, response)
  const schema = expect.schema === undefined ? undefined : evaluateSchema(expect.schema, response)
  const body = Object.entries(expect.body ?? {}).map(([path, matcher]) => {
    const { read, outcome } = matchAt(response.json, path, matcher)
    return {
      absent: matcher.absent === true,
      evaluation: {
        name: `body ${path}`,
        ok: outcome.ok,
        expected: matcher,
        actual: read.value,
        message: outcome.ok ? undefined : `${path} ${outcome.message}`,
      } as Evaluation,
    }
  })
  const reason = expect.reason === undefined ? undefined : evaluateReason(expect.reason, response)
  const evidence = [
    envelope,
    schema,
    reason,
    ...body.filter((b) => !b.absent).map((b) => b.evaluation),
  ].filter((e): e is Evaluation => e !== undefined)
  const unproven = evidence.filter((e) => !e.ok).map((e) => e.name)
  const out: Evaluation[] = []
  let statusOk = true
  const missingRoute = missingRouteMessage(expect, response)
  if (expect.status !== undefined) {
    const matched = matchStatus(response.status, expect.status) && missingRoute === undefined
    statusOk = matched && unproven.length === 0
    out.push({
      name: 'status',
      ok: statusOk,
      expected: expect.status,
      actual: response.status,
      message: !matched
        ? (missingRoute ?? `status is ${response.status}`)
        : statusOk
          ? undefined
          : `status is ${response.status}, but the body does not prove it (${unproven.join(', ')} failed)`,
    })
  } else if (missingRoute !== undefined && !('anyOf' in expect && expect.anyOf)) {
    statusOk = false
    out.push({ name: 'status', ok: false, actual: response.status, message: missingRoute })
  }
  for (const [name, matcher] of Object.entries(expect.headers ?? {})) {
    const key = name.toLowerCase()
    const outcome = applyMatcher({ found: key in response.headers, value: response.headers[key] }, matcher)
    out.push({
      name: `header ${key}`,
      ok: outcome.ok,
      expected: matcher,
      actual: response.headers[key],
      message: outcome.ok ? undefined : `header ${key} ${outcome.message}`,
    })
  }
  if (envelope) out.push(envelope)
  if (schema) out.push(schema)
  if (reason) out.push(reason)
  const json = response.json
  const substantial = typeof json === 'object' && json !== null && Object.keys(json).length > 0
  for (const { absent, evaluation } of body) {
    if (absent && evaluation.ok && !(substantial && statusOk))
      out.push({
        ...evaluation,
        ok: false,
        message: `${evaluation.name.slice(5)} is absent, but the response proves nothing (${substantial ? 'its status is wrong' : 'the body is not a non-empty JSON object'})`,
      })
    else out.push(evaluation)
  }
  // An answer from a route that is not there proves nothing of what the step checks: its
  // envelope, schema, headers and fields pass no check (a blanc NOT_FOUND to everything is
  // well-formed, and conforms to nothing).
  if (missingRoute !== undefined)
    return out.map((e) =>
      e.name === 'status' || !e.ok
        ? e
        : { ...e, ok: false, message: `${e.name} holds, but proves nothing: ${missingRoute}` },
    )
  return out
}

/**
 * Why an answer is a missing route (404, 405, 501) the step does not expect by that very code,
 * or undefined: a missing route is never acceptance, nor a refusal about the rule under test.
 */
export function missingRouteMessage(
  expect: Pick<Expectation, 'status'>,
  response: HttpResponse,
): string | undefined {
  if (!MISSING_ROUTE_STATUSES.includes(response.status) || namesStatus(response.status, expect.status))
    return undefined
  const code = readPath(response.json, '/code').value
  return `status is ${response.status}${typeof code === 'string' ? ` ${code}` : ''}: the target does not serve the route (a missing route is never acceptance, nor a refusal about the rule)`
}

/** The check that the error's reasons (message, error, code, details[], errors[]: reasons.ts) match, case-insensitively. */
function evaluateReason(matcher: NonNullable<Expectation['reason']>, response: HttpResponse): Evaluation {
  const reasons = errorReasons(response.json)
  const outcome = applyMatcher({ found: reasons !== '', value: reasons }, matcher, { ignoreCase: true })
  return {
    name: 'reason',
    ok: outcome.ok,
    expected: matcher,
    actual: reasons === '' ? undefined : reasons.slice(0, 300),
    message: outcome.ok
      ? undefined
      : reasons === ''
        ? 'the body gives no reason (no message, error, code, details[] or errors[])'
        : `the reasons ${outcome.message}`,
  }
}

/** The check that a body is the version's error envelope, with a trace id equal to `x-trace-id`. */
function evaluateEnvelope(version: 'alps' | 'blanc', response: HttpResponse): Evaluation {
  const schemaName = version === 'alps' ? 'AlpsErrorEnvelope' : 'BlancErrorEnvelope'
  const parsed = safeParseOnce(specSchemas[schemaName].schema, response.json)
  const traceHeader = response.headers['x-trace-id']
  const traceId = readPath(response.json, '/traceId').value
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`)
  if (response.json === undefined) problems.splice(0, problems.length, 'the body is not JSON')
  if (parsed.success && traceHeader !== undefined && traceId !== traceHeader)
    problems.push(
      `traceId ${JSON.stringify(traceId)} differs from the x-trace-id header ${JSON.stringify(traceHeader)}`,
    )
  return {
    name: `envelope ${version}`,
    ok: problems.length === 0,
    expected: `the ${version} error envelope (${schemaName})`,
    actual: response.text.slice(0, 300),
    message: problems.length ? problems.join('; ') : undefined,
  }
}

/** The check that a response body is valid by a spec schema named in a scenario. */
function evaluateSchema(name: string, response: HttpResponse): Evaluation {
  if (!isSpecSchemaName(name))
    return { name: `schema ${name}`, ok: false, message: `no spec schema named ${name}` }
  const parsed = safeParseOnce(specSchemas[name].schema, response.json)
  return {
    name: `schema ${name}`,
    ok: parsed.success,
    expected: name,
    actual: parsed.success ? undefined : response.text.slice(0, 300),
    message: parsed.success
      ? undefined
      : parsed.error.issues
          .slice(0, 10)
          .map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`)
          .join('; '),
  }
}

/** The one check of `anyOf`: it passes when every check of at least one alternative passes. */
export function evaluateAnyOf(alternatives: readonly Expectation[], response: HttpResponse): Evaluation {
  // A missing route passes no alternative that does not expect that very code, status or not
  // (evaluate fails it, and every check beside it).
  const evaluations = alternatives.map((alternative) => evaluate(alternative, response))
  const passing = evaluations.findIndex((alt) => alt.every((r) => r.ok))
  const missing = alternatives.every((a) => missingRouteMessage(a, response) !== undefined)
    ? missingRouteMessage({}, response)
    : undefined
  const said = (r: Evaluation) =>
    r.message === undefined
      ? `${r.name} failed`
      : r.message.startsWith(r.name)
        ? r.message
        : `${r.name}: ${r.message}`
  return {
    name: 'any of',
    ok: passing >= 0,
    expected: `one of ${evaluations.length} alternatives`,
    actual: passing >= 0 ? `alternative ${passing + 1}` : undefined,
    message:
      passing >= 0
        ? undefined
        : (missing ??
          evaluations
            .map(
              (alt, i) =>
                `alternative ${i + 1}: ${alt
                  .filter((r) => !r.ok)
                  .map(said)
                  .join('; ')}`,
            )
            .join(' | ')),
  }
}
