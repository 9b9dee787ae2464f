import { buildHttpRequest, requestExcerpt } from '../runner/buildHttpRequest'
import { evaluate, evaluateAnyOf } from '../runner/evaluate'
import { excerpt } from '../runner/excerpt'
import { normalizeCaip2 } from '../runner/profile'
import { errorReasons } from '../runner/reasons'
import type { ScenarioContext } from '../runner/scenarioContext'
import { sendRequest } from '../runner/sendRequest'
import type { HttpExcerpt } from '../runner/types'
import { stepVersion } from '../runner/versionHeaders'
import type { LoadedScenario } from '../scenario/loadScenarios'
import type { HttpExpect, HttpStep } from '../scenario/schema'
import { NO_5XX, type PropertyName } from './properties'

/**
 * Judges one HTTP step as the conformance runner does (the same request building, sending and
 * evaluation), so that a scenario written from a finding fails for the same reason.
 */

/** A property a request broke: which, why, and the exchange that shows it. */
export type Violation = { property: PropertyName; expect: HttpExpect; message: string; exchange: HttpExcerpt }

/** What a judged request answered (its status; none when it got no answer) and what it broke. */
export type Judgement = {
  status: number | undefined
  violation?: Violation | undefined
  /** The reasons of an error answer (message, code, details: reasons.ts), one a line. */
  reasons?: string | undefined
}

/** The scenario a lone step belongs to while it is judged (it names none of its own version). */
export const FUZZ_SCENARIO: LoadedScenario = {
  id: 'fuzz',
  title: 'fuzz',
  spec: 'fuzz',
  level: 'MUST',
  requires: { capabilities: [] },
  steps: [],
  cleanup: [],
  pack: 'fuzz',
  file: 'fuzz',
}

/**
 * Sends a step and judges the answer: first no 5xx (every request), then the step's own
 * expectation. No violation when both hold.
 *
 * @example
 * const { status, violation } = await judgeStep(fuzzCase.step, 'response-schema', context)
 */
export async function judgeStep(
  step: HttpStep,
  property: PropertyName,
  context: ScenarioContext,
  timeoutMs = 30_000,
): Promise<Judgement> {
  const request = buildHttpRequest(
    step.http,
    FUZZ_SCENARIO,
    context,
    stepVersion(step, FUZZ_SCENARIO, context.version),
  )
  const exchange: HttpExcerpt = { request: requestExcerpt(request, context.apiKey) }
  let response: Awaited<ReturnType<typeof sendRequest>>
  try {
    const sent = await sendRequest({ ...request, timeoutMs })
    response = { ...sent, json: normalizeCaip2(sent.json, request.caip2Response) }
  } catch (error) {
    exchange.error = error instanceof Error ? error.message : String(error)
    return {
      status: undefined,
      violation: { property: 'no-5xx', expect: NO_5XX, message: `no answer: ${exchange.error}`, exchange },
    }
  }
  exchange.response = { status: response.status, headers: response.headers, body: excerpt(response.text) }
  const status = response.status
  if (status >= 500)
    return {
      status,
      violation: {
        property: 'no-5xx',
        expect: NO_5XX,
        message: `answered ${status}: ${response.text.slice(0, 300)}`,
        exchange,
      },
    }
  const results = evaluate(step.expect, response)
  if (step.expect.anyOf) results.push(evaluateAnyOf(step.expect.anyOf, response))
  const failed = results.filter((r) => !r.ok)
  const reasons = status >= 400 ? errorReasons(response.json) : undefined
  if (failed.length === 0) return { status, reasons }
  return {
    status,
    reasons,
    violation: {
      property,
      expect: step.expect,
      message: failed.map((r) => `${r.name}: ${r.message ?? 'failed'}`).join('; '),
      exchange,
    },
  }
}
