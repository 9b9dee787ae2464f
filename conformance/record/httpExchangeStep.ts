import { isAddress } from 'viem'
import { specSchemas } from '../../spec'
import type { Matcher } from '../scenario/httpStepSchema'
import {
  type ChoiceList,
  type Draft,
  note,
  placeholder,
  reference,
  register,
  rememberLists,
  type Step,
  signable,
  substituteDeep,
  substituteKnown,
  substitutePath,
} from './draft'
import { faultExpectation, isFaultsRequest } from './faultSteps'
import { errorEnvelope, type Group, hasUnsafeIntegers, tryJson, tryJsonExact, versionOf } from './groupEvents'
import { finalStatuses, settlementAtOrPast, settlementInProgress } from './pollFinal'
import { routeSchema } from './routeSchema'
import { isTypedData, signaturesOf } from './signatureSteps'
import { isIdentity, isPricedOnly, isVolatileLeaf, leaves, subtrees } from './volatile'

/** Status paths a client polls until a state; replayed with `poll`. */
const STATUS_PATH = /^\/(intent-operation|intents)\/[^/]+$|^\/deposit-processor\/deposits/

/** A step and the steps to run before it (signatures the client made), each with its comment. */
export type MadeSteps = { step: Step; comment: string }[]

/**
 * The steps of one HTTP exchange (or a client's identical polls): the request with volatile
 * values as references and client signatures as `sign` / `signIntentOp` steps before it; the
 * answer as expectations (status, the route's schema or the error envelope, stable fields); a poll
 * that ends on a final status; the lists a client may pick an element of remembered for choices.
 *
 * @example
 * for (const { step, comment } of await httpExchangeSteps(draft, group)) await push(draft, step, comment)
 */
export async function httpExchangeSteps(
  draft: Draft,
  group: Extract<Group, { kind: 'http' }>,
): Promise<MadeSteps> {
  const { first, last, count } = group
  const response = last.response
  if (!response) {
    note(
      draft,
      `${last.method} ${last.path} at ${seconds(last.at)} got no answer (${last.error}); not replayed.`,
    )
    return []
  }
  const version = versionOf(last.headers['x-api-version'])
  const speaks = typeof version === 'string' && version !== 'omit' ? version : 'blanc'
  const http: Record<string, unknown> = {
    method: last.method,
    path: substitutePath(draft, last.path),
    ...(last.apiKey !== 'default' && { apiKey: last.apiKey }),
    version,
  }
  const extraHeaders = Object.fromEntries(
    Object.entries(last.headers).filter(
      ([k, v]) => k !== 'x-api-version' && !(k === 'content-type' && /^application\/json/.test(v)),
    ),
  )
  if (Object.keys(extraHeaders).length > 0) http.headers = extraHeaders
  const made: MadeSteps = []
  if (last.body !== undefined) made.push(...(await requestBody(draft, http, last.body)))

  const json = tryJsonExact(response.body)
  const expect: Record<string, unknown> = { status: response.status }
  const titleNotes: string[] = []
  if (response.status < 400) {
    const schema = routeSchema(last.method, last.path, speaks)
    if (schema && json.ok) {
      if (specSchemas[schema].schema.safeParse(json.value).success) expect.schema = schema
      else titleNotes.push(`the recorded answer broke ${schema}`)
    }
  } else if (json.ok) {
    const envelope = errorEnvelope(json.value, response.headers['x-trace-id'], speaks)
    if (envelope) expect.envelope = envelope
  }
  const step: Step = { name: '', http, expect }
  const stepIndex = draft.emitted + made.length
  const bare = last.path.split('?')[0] ?? ''
  const polled = last.method === 'GET' && (count > 1 || STATUS_PATH.test(bare))
  if (json.ok) {
    const faults = isFaultsRequest(last.method, bare)
      ? faultExpectation(draft, last.body, json.value, stepIndex)
      : undefined
    const body = faults ?? answerMatchers(draft, json.value, stepIndex, polled)
    if (Object.keys(body).length > 0) expect.body = body
    rememberAnswer(draft, json.value, stepIndex)
  }
  if (polled) {
    const final = json.ok ? finalStatuses(json.value) : undefined
    step.poll = { timeoutSeconds: 60, intervalMs: 500, ...(final && { final }) }
  }
  step.name = `${last.method} ${http.path as string} → ${response.status}${count > 1 ? ` (polled ${count} times)` : ''}${titleNotes.length ? ` (${titleNotes.join('; ')})` : ''}`
  made.push({
    step,
    comment: `${seconds(first.at)}: ${count > 1 ? `${count} requests, the last` : 'answered'} in ${last.durationMs} ms`,
  })
  return made
}

/** Sets the request's body (`body`, or `rawBody` when it is not JSON a step can hold); returns the signing steps it needs. */
async function requestBody(draft: Draft, http: Record<string, unknown>, raw: string): Promise<MadeSteps> {
  const parsed = tryJson(raw)
  if (parsed.ok && !hasUnsafeIntegers(raw)) {
    for (const leaf of leaves(parsed.value))
      if (typeof leaf.value === 'string' && isAddress(leaf.value, { strict: false }))
        draft.requestAddresses.add(leaf.value.toLowerCase())
    const signed = await signaturesOf(draft, parsed.value)
    http.body = substituteDeep(draft, signed.value)
    return signed.steps
  }
  let text = raw
  for (const [key, source] of draft.sources)
    if (key.length >= 10 && text.includes(key)) text = text.split(key).join(reference(draft, source))
  if (draft.hasKey && text.includes(draft.recording.apiKey))
    text = text.split(draft.recording.apiKey).join(placeholder('apiKey'))
  http.rawBody = text
  return []
}

/**
 * Matchers on an answer's stable fields (volatile ones registered as sources, or references to
 * earlier ones). With the chains' state captured, the replay restores their gas, so the amounts
 * and fees priced from it are expected too (a budget of their own; `replay --target` leaves them
 * out, as another target prices with its own gas). An intent's status in an answer that is not
 * polled is expected anywhere on its way to completion (pollFinal.ts settlementInProgress), one
 * polled at or past the recorded status on that way (settlementAtOrPast).
 */
function answerMatchers(
  draft: Draft,
  value: unknown,
  stepIndex: number,
  polled: boolean,
): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  const priced: Record<string, unknown> = {}
  const keepPriced = draft.recording.chainState !== undefined
  for (const leaf of leaves(value)) {
    if (keepPriced && isPricedOnly(leaf) && !draft.sources.has(String(leaf.value))) {
      if (Object.keys(priced).length < draft.maxMatchers && PRICED_FIGURE.test(String(leaf.key)))
        priced[leaf.pointer] = { equals: leaf.value }
      continue
    }
    const existing = draft.sources.get(String(leaf.value))
    if (
      existing &&
      existing.stepIndex !== stepIndex &&
      typeof existing.value === typeof leaf.value &&
      (typeof leaf.value === 'string' || typeof leaf.value === 'number')
    ) {
      if (Object.keys(body).length < draft.maxMatchers)
        body[leaf.pointer] = { equals: reference(draft, existing) }
      continue
    }
    if (isVolatileLeaf(leaf)) {
      if (isIdentity(leaf.key, leaf.value))
        register(draft, { stepIndex, kind: 'http', pointer: leaf.pointer, value: leaf.value })
      continue
    }
    // EIP-712 type lists are checked by the signature made over them, not field by field.
    if (/\/types\/[^/]+\/\d+\/(name|type)$/.test(leaf.pointer)) continue
    // An intent's status in an answer made while it settles, not polled (timing decides how far
    // it got); a polled one ends on its final status (poll.final) and is expected at least as far
    // as recorded (the client may have stopped polling before completion).
    const inProgress =
      leaf.key === 'status'
        ? polled
          ? settlementAtOrPast(leaf.value)
          : settlementInProgress(leaf.value)
        : undefined
    if (inProgress) {
      if (Object.keys(body).length < draft.maxMatchers) body[leaf.pointer] = inProgress
      continue
    }
    if (Object.keys(body).length < draft.maxMatchers)
      body[leaf.pointer] = { equals: substituteKnown(draft, leaf.value) }
  }
  return { ...body, ...priced }
}

/** The figures of a priced part worth expecting: amounts and their USD values (not the tokens they are in). */
const PRICED_FIGURE = /^(amount|usd|totalUsd|.*Usd|.*Amount|gasPrice|.*Fee|fee)$/

/** Remembers what a later step may use of an answer: typed data and intentOps to sign, lists to pick from. */
function rememberAnswer(draft: Draft, value: unknown, stepIndex: number): void {
  const lists: ChoiceList[] = []
  for (const tree of subtrees(value)) {
    if (
      isTypedData(tree.value) ||
      (Array.isArray(tree.value) && tree.value.length > 0 && tree.value.every(isTypedData))
    )
      signable(draft.typedDataSources, { stepIndex, kind: 'http', pointer: tree.pointer, value: tree.value })
    if (tree.key === 'intentOp' && typeof tree.value === 'object' && !Array.isArray(tree.value))
      signable(draft.intentOpSources, { stepIndex, kind: 'http', pointer: tree.pointer, value: tree.value })
    if (
      isChoiceList(tree.pointer, tree.value) &&
      !lists.some((l) => tree.pointer.startsWith(`${l.pointer}/`))
    )
      lists.push({ pointer: tree.pointer, identities: tree.value.map(identityOf) })
  }
  rememberLists(draft, stepIndex, lists)
}

/** A list of two or more objects near the top of an answer (routes): a client picks one of them. */
function isChoiceList(pointer: string, value: unknown): value is Record<string, unknown>[] {
  return (
    Array.isArray(value) &&
    value.length > 1 &&
    pointer.split('/').length <= 3 &&
    value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
  )
}

/** Fields that say what an element of a list is: chains, tokens, requested amounts, funding and settlement. */
const IDENTITY_KEY = /^(chainId|chain|tokenAddress|token|symbol|fundingMethod|settlementLayer|kind)$/
/** Amounts that are what was asked for, not priced from gas. */
const REQUESTED_AMOUNT = /\/output\/\d+\/amount$/

/**
 * Matchers that pick one element of a list by content (a route: its origin chains and tokens,
 * the requested amounts, its funding method and settlement layer), whatever the list's order.
 * Signed data and type lists are left out (they say the same of every element).
 */
function identityOf(element: Record<string, unknown>): Record<string, Matcher> {
  const out: Record<string, Matcher> = {}
  for (const leaf of leaves(element)) {
    if (/\/(signData|types|intentOp|typedData)\//.test(leaf.pointer)) continue
    if (typeof leaf.value !== 'string' && typeof leaf.value !== 'number') continue
    const key = String(leaf.key)
    if (IDENTITY_KEY.test(key) || (key === 'amount' && REQUESTED_AMOUNT.test(leaf.pointer)))
      out[leaf.pointer] = { equals: leaf.value }
  }
  return out
}

const seconds = (ms: number) => `+${(ms / 1000).toFixed(3)}s`
