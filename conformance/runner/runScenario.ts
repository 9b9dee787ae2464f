import { setTimeout as sleep } from 'node:timers/promises'
import { isAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { LoadedScenario } from '../scenario/loadScenarios'
import type { HttpExpect, HttpStep, Requirement, Step, Version } from '../scenario/schema'
import { specSchemas } from '../spec'
import { runChainAction, signerKey, signTypedDataAs } from './chainActions'
import { interpolate } from './interpolate'
import { applyMatcher, matchStatus, readPath } from './matchers'
import { type HttpResponse, sendRequest } from './sendRequest'
import { CANONICAL_SIGNING_CONTRACTS, type SigningContracts, signIntentOp } from './signIntentOp'
import type { CheckResult, HttpExcerpt, ScenarioResult, TargetCapabilities } from './types'
import type { WebhookReceiver } from './webhookReceiver'

/** The header value of each version (spec: Versioning §3). */
export const VERSION_HEADERS = { alps: '2026-01.alps', blanc: '2026-04.blanc' } as const satisfies Record<
  Version,
  string
>

/** What every scenario of a run shares. */
export type ScenarioContext = {
  target: string
  apiKey: string
  caps: TargetCapabilities
  receiver?: WebhookReceiver | undefined
  /** `--version`: only scenarios of this version (or of none) run; steps default to it. */
  version?: Version | undefined
  /** Time limit of one scenario, ms. */
  timeoutMs: number
}

const EXCERPT_BYTES = 4096
/** How many `${fresh.<i>.address}` accounts each scenario gets. */
const FRESH_ACCOUNTS = 2
const cut = (text: string) =>
  text.length > EXCERPT_BYTES ? `${text.slice(0, EXCERPT_BYTES)}… (${text.length} bytes)` : text

/** Why the target cannot run a scenario, or undefined when it can. */
export function notApplicableReason(scenario: LoadedScenario, context: ScenarioContext): string | undefined {
  const { caps } = context
  const version = scenario.requires.version
  if (version && context.version && version !== context.version)
    return `the scenario speaks ${version}; this run is restricted to --version ${context.version}`
  if (version && !caps.versions.includes(version))
    return `the target does not serve ${VERSION_HEADERS[version]}`
  const missing: Record<Requirement, string | undefined> = {
    devnet: caps.faults ? undefined : 'the target is not an intent-devnet (no /_devnet/ endpoints)',
    'control-api': caps.controlApi
      ? undefined
      : 'the target has no devnet control API (GET /_devnet/manifest)',
    faults: caps.faults ? undefined : 'the target cannot inject faults (no POST /_devnet/faults)',
    chains: caps.chains.length > 0 ? undefined : 'no chain RPC URLs (no manifest and no --chains file)',
    webhooks: caps.webhooks
      ? undefined
      : 'the target is not on loopback, so it cannot reach the webhook receiver',
    quotes:
      caps.implemented.quotes === false
        ? 'the target answers 501 NOT_IMPLEMENTED on POST /intents/route'
        : undefined,
    settlement:
      caps.implemented.settlement === false
        ? 'the target answers 501 NOT_IMPLEMENTED on GET /intent-operation/{id}'
        : undefined,
    withdrawals:
      caps.implemented.withdrawals === false
        ? 'the target answers 501 NOT_IMPLEMENTED on POST /withdrawals'
        : undefined,
    deposits:
      caps.implemented.deposits === false
        ? 'the target answers 501 NOT_IMPLEMENTED on the deposit processor'
        : undefined,
  }
  for (const requirement of scenario.requires.capabilities) {
    const reason = missing[requirement]
    if (reason) return reason
  }
  return undefined
}

/** A step found the scenario cannot be carried out here (e.g. an expiry too long to wait out). */
class NotApplicable extends Error {}

/**
 * Runs one scenario's steps in order and returns every check they made. A step whose checks
 * fail stops the scenario (later steps depend on it); faults the scenario enabled are disabled
 * again whatever happens.
 */
export async function runScenario(
  scenario: LoadedScenario,
  context: ScenarioContext,
): Promise<ScenarioResult> {
  const started = performance.now()
  const base = {
    id: scenario.id,
    title: scenario.title,
    pack: scenario.pack,
    file: scenario.file,
    spec: scenario.spec,
  }
  const reason = notApplicableReason(scenario, context)
  if (reason) return { ...base, status: 'not-applicable', reason, checks: [], durationMs: 0 }

  const checks: CheckResult[] = []
  const vars = initialVariables(context)
  const inbox = context.receiver?.createInbox()
  if (inbox) Object.assign(vars, { 'webhook.url': inbox.url, 'webhook.secret': inbox.secret })
  const enabledFaults = new Set<string>()
  const deadline = Date.now() + context.timeoutMs
  let stopReason: string | undefined
  let status: ScenarioResult['status'] = 'passed'

  const steps = [
    ...scenario.steps.map((step) => ({ step, cleanup: false })),
    ...scenario.cleanup.map((step) => ({ step, cleanup: true })),
  ]
  let stopped = false
  try {
    for (const [index, { step: rawStep, cleanup }] of steps.entries()) {
      if (stopped && !cleanup) continue
      const stepNumber = index + 1
      const check = (name: string, ok: boolean, extra: Partial<CheckResult> = {}, spec = scenario.spec) => {
        checks.push({
          id: `${scenario.id}/${stepNumber}/${name}`,
          scenarioId: scenario.id,
          step: stepNumber,
          name,
          spec,
          status: ok ? 'passed' : 'failed',
          ...extra,
        })
        return ok
      }
      const before = checks.length
      if (Date.now() > deadline) {
        check('time limit', false, {
          message: `the scenario exceeded --timeout ${context.timeoutMs / 1000}s`,
        })
      } else {
        try {
          await runStep(rawStep, {
            scenario,
            context,
            vars,
            check,
            enabledFaults,
            inboxId: inbox?.id,
            deadline,
          })
        } catch (error) {
          if (error instanceof NotApplicable) throw error
          check('step', false, { message: error instanceof Error ? error.message : String(error) })
        }
      }
      if (!cleanup && checks.slice(before).some((c) => c.status === 'failed')) {
        if (stepNumber < scenario.steps.length)
          stopReason = `stopped after step ${stepNumber} failed; ${scenario.steps.length - stepNumber} step(s) not run`
        stopped = true
      }
    }
  } catch (error) {
    if (!(error instanceof NotApplicable)) throw error
    status = 'not-applicable'
    stopReason = error.message
  } finally {
    if (enabledFaults.size > 0)
      await controlCall(context, '/_devnet/faults', { disable: [...enabledFaults] }).catch(() => {})
  }
  if (status !== 'not-applicable' && checks.some((c) => c.status === 'failed')) status = 'failed'
  return { ...base, status, reason: stopReason, checks, durationMs: Math.round(performance.now() - started) }
}

function initialVariables(context: ScenarioContext): Record<string, unknown> {
  const { caps } = context
  const vars: Record<string, unknown> = {
    apiKey: context.apiKey,
    target: context.target,
    now: Math.floor(Date.now() / 1000),
  }
  if (caps.quoteTtlSeconds !== undefined) vars.quoteTtlSeconds = caps.quoteTtlSeconds
  caps.chains.forEach((chain, i) => {
    vars[`chains.${i}.chainId`] = chain.chainId
  })
  caps.accounts.forEach((key, i) => {
    vars[`accounts.${i}.address`] = privateKeyToAccount(key).address
  })
  for (const [name, address] of Object.entries(caps.contracts)) vars[`contracts.${name}`] = address
  for (const [name, address] of Object.entries(caps.tokens)) vars[`tokens.${name}`] = address
  // Accounts no other scenario uses (e.g. to register for deposits), new for every scenario.
  for (let i = 0; i < FRESH_ACCOUNTS; i++) {
    const key = generatePrivateKey()
    vars[`fresh.${i}.privateKey`] = key
    vars[`fresh.${i}.address`] = privateKeyToAccount(key).address
  }
  return vars
}

type StepRun = {
  scenario: LoadedScenario
  context: ScenarioContext
  vars: Record<string, unknown>
  check: (name: string, ok: boolean, extra?: Partial<CheckResult>, spec?: string) => boolean
  enabledFaults: Set<string>
  inboxId: string | undefined
  deadline: number
}

async function controlCall(context: ScenarioContext, path: string, body: unknown) {
  const response = await fetch(new URL(path, context.target), {
    method: 'POST',
    headers: { 'x-api-key': context.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  })
  const text = await response.text()
  return { status: response.status, text }
}

async function runStep(rawStep: Step, run: StepRun): Promise<void> {
  const { context, vars, check } = run
  if ('http' in rawStep) return runHttpStep(rawStep, run)
  if ('wait' in rawStep) {
    await sleep(rawStep.wait)
    return
  }
  if ('clock' in rawStep) {
    const clock = interpolate(rawStep.clock, vars)
    let seconds: number
    if (clock.until !== undefined) {
      const now = context.caps.controlApi ? await targetNow(context) : Date.now() / 1000
      seconds = Math.max(1, Math.ceil(Number(clock.until) - now) + 1)
    } else seconds = Math.ceil(Number(clock.advance))
    if (!Number.isFinite(seconds) || seconds < 0)
      throw new Error(`the clock step does not give a number of seconds: ${JSON.stringify(clock)}`)
    if (context.caps.controlApi) {
      const response = await controlCall(context, '/_devnet/clock/advance', { seconds: Math.max(1, seconds) })
      check(
        'clock advance',
        response.status === 200,
        {
          expected: 200,
          actual: response.status,
          message: response.status === 200 ? undefined : cut(response.text),
        },
        'DESIGN: devnet control API',
      )
      return
    }
    if (clock.fallback === 'wait' && seconds <= clock.maxWaitSeconds) {
      await sleep(seconds * 1000)
      return
    }
    throw new NotApplicable(
      `no control API to advance the clock, and ${seconds}s is longer than the ${clock.maxWaitSeconds}s the scenario may wait`,
    )
  }
  if ('fault' in rawStep) {
    if (!context.caps.faults)
      throw new NotApplicable('the target cannot inject faults (no POST /_devnet/faults)')
    const fault = rawStep.fault
    const response = await controlCall(context, '/_devnet/faults', fault)
    const ok = response.status === 200
    check(
      'fault control',
      ok,
      { expected: 200, actual: response.status, message: ok ? undefined : cut(response.text) },
      'DESIGN: devnet control API',
    )
    if (ok) {
      for (const name of fault.enable ?? []) run.enabledFaults.add(name)
      for (const name of fault.disable ?? []) run.enabledFaults.delete(name)
    }
    return
  }
  if ('sign' in rawStep) {
    const step = interpolate(rawStep.sign, vars)
    const signatures = await signTypedDataAs(context.caps, step.account, step.typedData)
    vars[rawStep.captureAs] = signatures
    return
  }
  if ('signIntentOp' in rawStep) {
    const step = interpolate(rawStep.signIntentOp, vars)
    const account = privateKeyToAccount(signerKey(context.caps, step.account))
    vars[rawStep.captureAs] = await signIntentOp(step.intentOp, account, signingContracts(context.caps))
    return
  }
  if ('patch' in rawStep) {
    const step = interpolate(rawStep.patch, vars)
    const copy = structuredClone(step.value)
    for (const [pointer, value] of Object.entries(step.set)) setPointer(copy, pointer, value)
    vars[rawStep.captureAs] = copy
    return
  }
  if ('chain' in rawStep) {
    const step = interpolate(rawStep.chain, vars)
    if (step.action === 'receipts') {
      const list = Array.isArray(step.transactions) ? step.transactions : []
      if (
        !check('transactions', list.length > 0, {
          expected: 'a non-empty list of transactions',
          actual: step.transactions,
          message: list.length > 0 ? undefined : 'no transactions to check',
        })
      )
        return
      for (const [i, item] of list.entries()) {
        const hash = readPath(item, step.hashField).value
        const chainId = readPath(item, step.chainIdField).value
        const result =
          typeof hash === 'string' && (typeof chainId === 'number' || typeof chainId === 'string')
            ? await runChainAction(context.caps, {
                action: 'receipt',
                chainId,
                hash,
                expectStatus: step.expectStatus,
                timeoutSeconds: step.timeoutSeconds,
              })
            : { status: undefined, error: `item ${i} has no ${step.hashField} and ${step.chainIdField}` }
        const ok = result.status === step.expectStatus
        check(`receipt ${i}`, ok, {
          expected: step.expectStatus,
          actual: `${String(hash)} on chain ${String(chainId)}: ${result.status ?? 'not mined'}`,
          message: ok
            ? undefined
            : `transaction ${String(hash)} on chain ${String(chainId)} is ${result.status ?? 'not mined'}${result.error ? `: ${result.error}` : ''}`,
        })
      }
      return
    }
    const result = await runChainAction(context.caps, step)
    if (step.action === 'receipt' || step.action === 'writeContract') {
      const ok = result.status === step.expectStatus
      const what =
        step.action === 'receipt' ? `receipt ${step.hash}` : `${step.functionName} on ${step.chainId}`
      check(what, ok, {
        expected: step.expectStatus,
        actual: result.status ?? 'not mined',
        message: ok
          ? undefined
          : result.status === undefined
            ? `transaction ${step.action === 'receipt' ? step.hash : ''} is not mined on chain ${step.chainId}${result.error ? `: ${result.error}` : ''}`
            : `transaction ${result.hash} ${result.status}${result.error ? `: ${result.error}` : ''}`,
      })
      for (const [name, field] of Object.entries(rawStep.capture ?? {})) vars[name] = result[field]
      return
    }
    if (step.action === 'readBalance') {
      const balance = result.balance?.toString()
      if (step.captureAs) vars[step.captureAs] = balance
      if (step.expect) {
        const outcome = applyMatcher({ found: true, value: balance }, step.expect)
        check(`balance ${step.account} on ${step.chainId}`, outcome.ok, {
          expected: step.expect,
          actual: balance,
          message: outcome.ok ? undefined : `balance ${outcome.message}`,
        })
      }
      return
    }
    check(`${step.action} on ${step.chainId}`, result.status === 'success', {
      expected: 'success',
      actual: result.status,
      message: result.status === 'success' ? undefined : `transaction ${result.hash} reverted`,
    })
    for (const [name, field] of Object.entries(rawStep.capture ?? {})) vars[name] = result[field]
    return
  }
  if ('webhook' in rawStep) {
    const spec = rawStep.webhook.spec ?? run.scenario.spec
    const expectation = interpolate(rawStep.webhook, vars)
    if (!context.receiver || !run.inboxId)
      throw new NotApplicable('no webhook receiver reachable by the target')
    const timeout = Math.min(expectation.withinSeconds * 1000, Math.max(0, run.deadline - Date.now()))
    const hook = await context.receiver.waitFor(
      run.inboxId,
      (h) =>
        readPath(h.json, '/type').value === expectation.type &&
        Object.entries(expectation.where ?? {}).every(
          ([path, matcher]) => applyMatcher(readPath(h.json, path), matcher).ok,
        ),
      timeout,
    )
    const received = context.receiver.received(run.inboxId).map((h) => readPath(h.json, '/type').value)
    if (
      !check(
        `webhook ${expectation.type}`,
        hook !== undefined,
        {
          expected: `a ${expectation.type} event${expectation.where ? ` where ${JSON.stringify(expectation.where)}` : ''} within ${expectation.withinSeconds}s`,
          actual: received.length ? `received: ${received.join(', ')}` : 'nothing received',
        },
        spec,
      )
    )
      return
    check(
      `webhook ${expectation.type} signature`,
      hook!.signature === expectation.signature,
      {
        expected: expectation.signature,
        actual: hook!.signature,
        message:
          hook!.signature === expectation.signature
            ? undefined
            : `X-Webhook-Signature is ${hook!.signature} (header: ${String(hook!.headers['x-webhook-signature'] ?? 'none')})`,
      },
      spec,
    )
    for (const [path, matcher] of Object.entries(expectation.body ?? {})) {
      const read = readPath(hook!.json, path)
      const outcome = applyMatcher(read, matcher)
      check(
        `webhook body ${path}`,
        outcome.ok,
        {
          expected: matcher,
          actual: read.value,
          message: outcome.ok ? undefined : `${path} ${outcome.message}`,
        },
        spec,
      )
    }
    for (const [name, path] of Object.entries(rawStep.capture ?? {}))
      vars[name] = readPath(hook!.json, path).value
    return
  }
}

/** The Compact, Permit2 and IntentExecutor of each chain as the target names them, else canonical. */
function signingContracts(caps: TargetCapabilities): SigningContracts {
  return (name, chainId) => {
    const named = caps.contracts[`${chainId}.${name}`] ?? caps.contracts[name]
    return named && isAddress(named, { strict: false }) ? named : CANONICAL_SIGNING_CONTRACTS(name, chainId)
  }
}

/** Sets the value at a JSON pointer of an object or array; the parent must exist. */
function setPointer(root: unknown, pointer: string, value: unknown): void {
  const parts = pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  let node = root
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1
    if (typeof node !== 'object' || node === null || !(part in node))
      throw new Error(`patch: ${pointer} does not exist (no "${part}")`)
    if (last) (node as Record<string, unknown>)[part] = value
    else node = (node as Record<string, unknown>)[part]
  }
}

/** The target's devnet clock (its manifest), unix seconds. */
async function targetNow(context: ScenarioContext): Promise<number> {
  const response = await fetch(new URL('/_devnet/manifest', context.target), {
    headers: { 'x-api-key': context.apiKey },
    signal: AbortSignal.timeout(10_000),
  })
  const now = readPath(await response.json(), '/clock/now').value
  return typeof now === 'number' ? now : Date.now() / 1000
}

async function runHttpStep(rawStep: HttpStep, run: StepRun): Promise<void> {
  const { context, vars, check, scenario } = run
  const step = interpolate(rawStep.http, vars)
  const expect = interpolate(rawStep.expect, vars)

  const headers: Record<string, string> = {}
  if (step.apiKey === 'default') headers['x-api-key'] = context.apiKey
  else if (step.apiKey === 'wrong') headers['x-api-key'] = `${context.apiKey}-wrong`
  else if (typeof step.apiKey === 'object') headers['x-api-key'] = step.apiKey.value
  const version = step.version ?? scenario.requires.version ?? context.version ?? 'blanc'
  if (typeof version === 'object') headers['x-api-version'] = version.raw
  else if (version !== 'omit') headers['x-api-version'] = VERSION_HEADERS[version]

  let body: string | undefined
  if (step.rawBody !== undefined) body = step.rawBody
  else if (step.oversizeBytes !== undefined)
    body = JSON.stringify({ padding: 'x'.repeat(Math.max(0, step.oversizeBytes - 14)) })
  else if (step.body !== undefined) body = JSON.stringify(step.body)
  if (body !== undefined) headers['content-type'] = 'application/json'
  Object.assign(headers, step.headers)

  const url = new URL(step.path, context.target).toString()
  const exchange: HttpExcerpt = {
    request: {
      method: step.method,
      url,
      headers: redact(headers, context.apiKey),
      body: body === undefined ? undefined : cut(body),
    },
  }
  let response: HttpResponse
  let results: Evaluation[]
  const pollUntil = rawStep.poll
    ? Math.min(run.deadline, Date.now() + rawStep.poll.timeoutSeconds * 1000)
    : undefined
  let attempts = 0
  for (;;) {
    attempts++
    try {
      response = await sendRequest({
        method: step.method,
        url,
        headers,
        body,
        timeoutMs: Math.max(1000, Math.min(30_000, run.deadline - Date.now())),
      })
    } catch (error) {
      exchange.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      check('request', false, { message: `${step.method} ${step.path} failed: ${exchange.error}`, exchange })
      return
    }
    results = evaluate(expect, response)
    const done =
      results.every((r) => r.ok) &&
      (!expect.anyOf ||
        expect.anyOf.some((alternative) => evaluate(alternative, response).every((r) => r.ok)))
    if (done || pollUntil === undefined || Date.now() + rawStep.poll!.intervalMs > pollUntil) break
    await sleep(rawStep.poll!.intervalMs)
  }
  exchange.response = { status: response.status, headers: response.headers, body: cut(response.text) }
  if (pollUntil !== undefined && !results.every((r) => r.ok))
    for (const result of results)
      if (!result.ok)
        result.message = `${result.message ?? result.name} (still, after ${attempts} polls over ${rawStep.poll!.timeoutSeconds}s)`

  for (const result of results)
    check(
      result.name,
      result.ok,
      { expected: result.expected, actual: result.actual, message: result.message, exchange },
      expect.spec ?? scenario.spec,
    )
  if (expect.anyOf) {
    const alternatives = expect.anyOf.map((alternative) => evaluate(alternative, response))
    const passing = alternatives.findIndex((alt) => alt.every((r) => r.ok))
    check(
      'any of',
      passing >= 0,
      {
        expected: `one of ${alternatives.length} alternatives`,
        actual: passing >= 0 ? `alternative ${passing + 1}` : undefined,
        message:
          passing >= 0
            ? undefined
            : alternatives
                .map(
                  (alt, i) =>
                    `alternative ${i + 1}: ${alt
                      .filter((r) => !r.ok)
                      .map((r) => `${r.name} ${r.message}`)
                      .join('; ')}`,
                )
                .join(' | '),
        exchange,
      },
      expect.spec ?? scenario.spec,
    )
  }

  for (const [name, path] of Object.entries(rawStep.capture ?? {})) {
    const read: { found: boolean; value: unknown } = path.startsWith('header:')
      ? {
          found: path.slice(7).toLowerCase() in response.headers,
          value: response.headers[path.slice(7).toLowerCase()],
        }
      : readPath(response.json, path)
    if (read.found) vars[name] = read.value
    else
      check(`capture ${name}`, false, {
        expected: `a value at ${path}`,
        actual: undefined,
        message: `${path} is missing`,
        exchange,
      })
  }
}

function redact(headers: Record<string, string>, apiKey: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [
      k,
      k === 'x-api-key' && v.startsWith(apiKey) ? `<api key>${v.slice(apiKey.length)}` : v,
    ]),
  )
}

type Evaluation = {
  name: string
  ok: boolean
  expected?: unknown
  actual?: unknown
  message?: string | undefined
}

/** Every check an expectation makes on a response, in a fixed order. */
export function evaluate(expect: Omit<HttpExpect, 'anyOf'>, response: HttpResponse): Evaluation[] {
  const out: Evaluation[] = []
  if (expect.status !== undefined) {
    const ok = matchStatus(response.status, expect.status)
    out.push({
      name: 'status',
      ok,
      expected: expect.status,
      actual: response.status,
      message: ok ? undefined : `status is ${response.status}`,
    })
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
  if (expect.envelope !== undefined) {
    const schemaName = expect.envelope === 'alps' ? 'AlpsErrorEnvelope' : 'BlancErrorEnvelope'
    const parsed = specSchemas[schemaName].schema.safeParse(response.json)
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
    out.push({
      name: `envelope ${expect.envelope}`,
      ok: problems.length === 0,
      expected: `the ${expect.envelope} error envelope (${schemaName})`,
      actual: response.text.slice(0, 300),
      message: problems.length ? problems.join('; ') : undefined,
    })
  }
  if (expect.schema !== undefined) {
    const entry = (
      specSchemas as Record<
        string,
        {
          schema: {
            safeParse: (v: unknown) => {
              success: boolean
              error?: { issues: { path: PropertyKey[]; message: string }[] }
            }
          }
        }
      >
    )[expect.schema]
    if (!entry)
      out.push({
        name: `schema ${expect.schema}`,
        ok: false,
        message: `no spec schema named ${expect.schema}`,
      })
    else {
      const parsed = entry.schema.safeParse(response.json)
      out.push({
        name: `schema ${expect.schema}`,
        ok: parsed.success,
        expected: expect.schema,
        actual: parsed.success ? undefined : response.text.slice(0, 300),
        message: parsed.success
          ? undefined
          : parsed.error?.issues
              .slice(0, 10)
              .map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`)
              .join('; '),
      })
    }
  }
  for (const [path, matcher] of Object.entries(expect.body ?? {})) {
    const read = readPath(response.json, path)
    const outcome = applyMatcher(read, matcher)
    out.push({
      name: `body ${path}`,
      ok: outcome.ok,
      expected: matcher,
      actual: read.value,
      message: outcome.ok ? undefined : `${path} ${outcome.message}`,
    })
  }
  return out
}
