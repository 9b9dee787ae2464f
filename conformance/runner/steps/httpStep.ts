import { setTimeout as sleep } from 'node:timers/promises'
import type { HttpStep } from '../../scenario/schema'
import { buildHttpRequest, requestExcerpt } from '../buildHttpRequest'
import { captureValues } from '../captures'
import { chooseElements } from '../chooseElements'
import { type Evaluation, evaluate, evaluateAnyOf, missingRouteMessage } from '../evaluate'
import { excerpt } from '../excerpt'
import { interpolate } from '../interpolate'
import { applyMatcher, type PathRead, readPath } from '../matchers'
import { NotApplicableError } from '../notApplicableError'
import { normalizeCaip2 } from '../profile'
import { responseChecks } from '../responseChecks'
import { type HttpResponse, sendRequest } from '../sendRequest'
import type { HttpExcerpt } from '../types'
import { stepVersion } from '../versionHeaders'
import { type StepRun, seconds } from './stepRun'

/** The first pause of a polled request; each next one doubles, up to the step's `intervalMs`. */
const FIRST_POLL_PAUSE_MS = 25

/** Statuses that refuse the request itself (or say the route is missing): polling it again cannot change them. */
const FINAL_STATUSES: readonly number[] = [400, 401, 403, 405, 410, 413, 415, 422, 501]

/** A 404 that lasts this long ends a poll (a status may lag a moment behind the submit). */
const LASTING_NOT_FOUND_MS = 2000

/**
 * `http`: sends a request (again, while `poll` allows, until every check passes) and checks the
 * answer against `expect`, each key one check; captures from the answer's body and headers.
 */
export async function httpStep(step: HttpStep, run: StepRun): Promise<void> {
  const { context, vars, check, scenario } = run
  const http = interpolate(step.http, vars)
  const expect = interpolate(step.expect, vars)
  const spec = expect.spec ?? scenario.spec
  const request = buildHttpRequest(http, scenario, context, stepVersion(step, scenario, context.version))
  const exchange: HttpExcerpt = { request: requestExcerpt(request, context.apiKey) }
  const pollStarted = Date.now()
  const poll = step.poll && {
    ...step.poll,
    final: step.poll.final && interpolate(step.poll.final, vars),
    until: Math.min(run.deadline, pollStarted + step.poll.timeoutSeconds * 1000),
    /** The scenario's time limit ends it before its own. */
    cut: run.deadline < pollStarted + step.poll.timeoutSeconds * 1000,
  }
  /**
   * What makes the answer final (it will not change, whatever the wait), or undefined: the
   * poll's final state (a terminal status), or a status no later poll turns into the expected
   * one (a refusal of the request itself, a missing route; a 404 that lasts).
   */
  let notFoundSince: number | undefined
  const settled = (answer: HttpResponse): string | undefined => {
    if (
      poll?.final !== undefined &&
      Object.entries(poll.final).every(
        ([path, matcher]) => applyMatcher(readPath(answer.json, path), matcher).ok,
      )
    )
      return Object.keys(poll.final)
        .map((path) => `${path} ${JSON.stringify(readPath(answer.json, path).value)}`)
        .join(', ')
    if (FINAL_STATUSES.includes(answer.status)) return `status ${answer.status}`
    if (answer.status !== 404) notFoundSince = undefined
    else if (notFoundSince === undefined) notFoundSince = Date.now()
    else if (Date.now() - notFoundSince >= LASTING_NOT_FOUND_MS)
      return `status 404 for ${seconds(Date.now() - notFoundSince)}`
    return undefined
  }

  const choices = step.choose && interpolate(step.choose, vars)
  let unmatched: ReturnType<typeof chooseElements>['unmatched'] = []
  let response: HttpResponse
  let results: Evaluation[]
  let attempts = 0
  let final: string | undefined
  for (;;) {
    attempts++
    try {
      const sent = await sendRequest({
        ...request,
        timeoutMs: Math.max(1000, Math.min(30_000, run.deadline - Date.now())),
        // The runner's own simulator reads a refused body to its end before it answers
        // (simulator/http/refusedBody.ts): no early answer to wait for. It is this run's own
        // server, sent to over a lean client (sendRequest's ownServer).
        ...(context.ownSimulator && { earlyAnswerMs: 0, ownServer: true }),
      })
      const chosen = chooseElements(normalizeCaip2(sent.json, request.caip2Response), choices)
      response = { ...sent, json: chosen.json }
      unmatched = chosen.unmatched
    } catch (error) {
      exchange.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      check('request', false, { message: `${http.method} ${http.path} failed: ${exchange.error}`, exchange })
      return
    }
    results = [
      ...unmatched.map(({ place, message }) => ({ name: `choose ${place}`, ok: false, message })),
      ...evaluate(expect, response),
    ]
    const done = results.every((r) => r.ok) && (!expect.anyOf || evaluateAnyOf(expect.anyOf, response).ok)
    if (!poll || done) break
    // A final state other than the expected one: waiting longer cannot change the verdict.
    final = settled(response)
    if (final !== undefined) break
    // Soon at first (a state often changes within milliseconds), then less often up to intervalMs.
    const pause = Math.min(poll.intervalMs, FIRST_POLL_PAUSE_MS * 2 ** (attempts - 1))
    if (Date.now() + pause > poll.until) break
    await sleep(pause)
  }
  exchange.response = { status: response.status, headers: response.headers, body: excerpt(response.text) }
  if (poll && !results.every((r) => r.ok))
    for (const result of results)
      if (!result.ok)
        result.message = final
          ? `${final}, but ${result.message ?? `${result.name} failed`} (a final answer: the poll ended after ${attempts} poll${attempts === 1 ? '' : 's'} over ${seconds(Date.now() - pollStarted)}; no later answer can change it)`
          : `${result.message ?? result.name} (still, after ${attempts} polls over ${seconds(Date.now() - pollStarted)}${
              poll.cut
                ? `: the scenario's time limit ended the poll before its ${poll.timeoutSeconds} s`
                : ` of the poll's ${poll.timeoutSeconds} s`
            })`

  if (expect.anyOf) results.push(evaluateAnyOf(expect.anyOf, response))
  const refused = results.filter((r) => !r.ok)
  // Only a note or a reason says it: not parsed for every answer.
  const sent = () => `${request.method} ${new URL(request.url).pathname}`
  if (step.prerequisite !== undefined && refused.length > 0)
    throw new NotApplicableError(
      `${step.prerequisite}: ${sent()} answered ${response.status} (${refused
        .map((r) => r.message ?? `${r.name} failed`)
        .join('; ')
        .slice(0, 300)})`,
    )
  if (step.needs !== undefined && missingRouteMessage({}, response) !== undefined)
    throw new NotApplicableError(`${step.needs}: the target answers ${response.status} to ${sent()}`)
  // Setup that took: noted, not counted (a 2xx the spec does not describe proves nothing yet).
  const preparing = step.setup ?? step.prerequisite
  if (preparing !== undefined && refused.length === 0 && response.status < 500) {
    run.note(`setup: ${step.name ?? sent()} (${preparing}): ${sent()} answered ${response.status}`)
    captureValues(vars, step.capture, (path) => readCapture(response, path))
    return
  }
  for (const { name, ok, expected, actual, message } of results)
    check(name, ok, { expected, actual, message, exchange, level: expect.level }, spec)
  // What only the public service does, on the same answer: graded SHOULD, named `should …`.
  if (expect.should) {
    const should = evaluate(expect.should, response)
    if (expect.should.anyOf) should.push(evaluateAnyOf(expect.should.anyOf, response))
    for (const { name, ok, expected, actual, message } of should)
      check(
        `should ${name}`,
        ok,
        { expected, actual, message, exchange, level: 'SHOULD' },
        expect.should.spec ?? spec,
      )
  }

  // Every answer is also checked against the contract's route table (not a 5xx, the route's
  // schema, the version's envelope). On an answer the step itself refused, or one that says the
  // route is missing (404, 405, 501), only their failures count: a passing automatic check there
  // proves nothing (a 200 {} is not a 5xx; a target that answers 404 to everything is not served).
  const accepted = results.every((r) => r.ok) && ![404, 405, 501].includes(response.status)
  for (const auto of responseChecks({
    method: http.method,
    path: http.path,
    versionHeader: request.headers['x-api-version'],
    status: response.status,
    json: response.json,
  }))
    if (!auto.ok || accepted) check(auto.name, auto.ok, { ...auto.details, exchange }, auto.spec)

  const missing = captureValues(vars, step.capture, (path) => readCapture(response, path))
  // A capture missing from an answer that already failed adds no failure: the step has failed.
  if (results.some((r) => !r.ok)) return
  for (const { name, source } of missing)
    check(`capture ${name}`, false, {
      expected: `a value at ${source}`,
      actual: undefined,
      message: `${source} is missing`,
      exchange,
    })
}

/** A capture of an answer: `header:<name>`, else a JSON pointer or dotted path of its body. */
function readCapture(response: HttpResponse, path: string): PathRead {
  if (!path.startsWith('header:')) return readPath(response.json, path)
  const name = path.slice('header:'.length).toLowerCase()
  return { found: name in response.headers, value: response.headers[name] }
}
