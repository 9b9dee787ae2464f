import { type Address, getAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Matcher } from '../scenario/httpStepSchema'
import { Step as ScenarioStep } from '../scenario/schema'
import type { Recording } from './recording'

/** A step as the writer makes it (the pack format's input form). */
export type Step = Record<string, unknown> & { capture?: Record<string, string> }

/** Where a volatile value was first answered: a later request or answer that carries it reads it from there. */
export type Source = {
  /** The index of the step whose answer holds the value. */
  stepIndex: number
  kind: 'http' | 'webhook' | 'chain'
  pointer: string
  value: unknown
  name?: string
}

/** A list of an answer whose elements a client may pick one of (routes), with each element's identity. */
export type ChoiceList = { pointer: string; identities: Record<string, Matcher>[] }

/**
 * Everything the writer knows while it turns a recording into steps, in one place: the passes
 * (`httpExchangeStep.ts`, `signatureSteps.ts`, `chainEventStep.ts`, `webhookEventStep.ts`) read
 * and change it through the functions here. It is bounded whatever the recording's length (see
 * the limits below).
 */
export type Draft = {
  recording: Recording
  maxMatchers: number
  /** A recording read back from its journal has no key (the journal never holds it). */
  hasKey: boolean
  /** How many steps were handed on so far (the next step's index). */
  emitted: number
  onStep?: ((step: Record<string, unknown>, comment: string) => void | Promise<void>) | undefined
  /** Each step's captures (its last key), known once a later step uses them. */
  captures: Map<number, Record<string, string>>
  /** Each step's choices (`choose`): the list elements the client picked, by content. */
  choices: Map<number, Record<string, Record<string, Matcher>>>
  /** The lists of recent answers a client may pick an element of, by step index. */
  lists: Map<number, ChoiceList[]>
  noteSet: Set<string>
  notesLeftOut: number
  keysNeeded: Set<Address>
  sources: Map<string, Source>
  typedDataSources: Source[]
  intentOpSources: Source[]
  names: Set<string>
  suffixes: Map<string, number>
  accounts: Address[]
  requestAddresses: Set<string>
  usesWebhook: boolean
  usesChains: boolean
  /** The faults enabled on the replay's target at this point, as the session's fault requests leave them. */
  faults: Set<string>
  /** What the session's fault requests did, for the file's header. */
  faultChanges: string[]
}

/**
 * How much of the past a long recording keeps to link values (volatile values seen; answers that
 * held typed data, an intentOp or a list a client may pick from): enough for any session a person
 * drives, and it bounds the memory a recording of a load test costs. A value older than this is
 * written as recorded instead of as a reference.
 */
const MAX_SOURCES = 200_000
const MAX_SIGNABLE_SOURCES = 64
/** Notes beyond this many are counted, not listed. */
const MAX_NOTES = 50

/** Variables the runner sets itself; a capture never takes their names. */
const RESERVED = new Set(['apiKey', 'target', 'now', 'quoteTtlSeconds'])

/** `${name}`: a reference to a variable, as a scenario writes it. */
export const placeholder = (name: string) => `\${${name}}`

/**
 * A draft for a recording, before its first step.
 *
 * @example
 * const draft = createDraft(recording, { maxMatchers: 60, onStep })
 */
export function createDraft(
  recording: Recording,
  options: { maxMatchers: number; onStep?: Draft['onStep'] },
): Draft {
  return {
    recording,
    maxMatchers: options.maxMatchers,
    hasKey: recording.apiKey.length > 0,
    emitted: 0,
    onStep: options.onStep,
    captures: new Map(),
    choices: new Map(),
    lists: new Map(),
    noteSet: new Set(),
    notesLeftOut: 0,
    keysNeeded: new Set(),
    sources: new Map(),
    typedDataSources: [],
    intentOpSources: [],
    names: new Set(),
    suffixes: new Map(),
    accounts: recording.accountKeys.map((key) => privateKeyToAccount(key).address),
    requestAddresses: new Set(),
    usesWebhook: false,
    usesChains: false,
    faults: new Set(),
    faultChanges: [],
  }
}

/**
 * Adds a note for the file's header (once; past {@link MAX_NOTES} only counted).
 *
 * @example
 * note(draft, 'a transaction was refused; not replayed.')
 */
export function note(draft: Draft, text: string): void {
  if (draft.noteSet.has(text)) return
  if (draft.noteSet.size >= MAX_NOTES) draft.notesLeftOut++
  else draft.noteSet.add(text)
}

/**
 * A variable name for a value at `pointer` that no other variable has (`intentId`, `intentId2`, …).
 *
 * @example
 * freshName(draft, '/routes/0/intentId') // 'intentId'
 */
export function freshName(draft: Draft, pointer: string, suffix = ''): string {
  const segments = pointer.split('/').filter((s) => s !== '' && !/^\d+$/.test(s))
  const last = (segments.at(-1) ?? 'value').replace(/[^\w]/g, '_')
  let base = `${/^[A-Za-z_]/.test(last) ? last : `v_${last}`}${suffix}`
  if (RESERVED.has(base)) base = `recorded_${base}`
  let name = base
  // Counting on from the last suffix of this base: a long recording has thousands of `id`s.
  for (let i = draft.suffixes.get(base) ?? 2; draft.names.has(name); i++) {
    name = `${base}${i}`
    draft.suffixes.set(base, i + 1)
  }
  draft.names.add(name)
  return name
}

/**
 * The variable that reads a source: added to its step's captures the first time it is used. A
 * source inside an element of a list the client could pick from (a route) also records the
 * choice, by the element's content, on the step that answered it.
 *
 * @example
 * const ref = reference(draft, source) // '${intentId}'
 */
export function reference(draft: Draft, source: Source): string {
  if (!source.name) {
    source.name = freshName(draft, source.pointer)
    draft.captures.set(source.stepIndex, {
      ...draft.captures.get(source.stepIndex),
      [source.name]: source.kind === 'chain' ? 'hash' : source.pointer,
    })
    if (source.kind === 'http') recordChoice(draft, source)
  }
  return placeholder(source.name)
}

function recordChoice(draft: Draft, source: Source): void {
  for (const list of draft.lists.get(source.stepIndex) ?? []) {
    const match = new RegExp(`^${escapeRegExp(list.pointer)}/(\\d+)(?:/|$)`).exec(source.pointer)
    const identity = match ? list.identities[Number(match[1])] : undefined
    if (!identity || Object.keys(identity).length === 0) continue
    draft.choices.set(source.stepIndex, {
      ...draft.choices.get(source.stepIndex),
      [`${list.pointer}/${match![1]}`]: identity,
    })
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Remembers a volatile value an answer gave (the first time it is seen), so a later use reads it.
 *
 * @example
 * register(draft, { stepIndex: 3, kind: 'http', pointer: '/intentId', value: '0xab…' })
 */
export function register(draft: Draft, source: Source): void {
  const key = String(source.value)
  if (key.length >= 6 && !draft.sources.has(key)) {
    draft.sources.set(key, source)
    // The oldest first (a Map keeps insertion order).
    if (draft.sources.size > MAX_SOURCES) draft.sources.delete(draft.sources.keys().next().value as string)
  }
}

/**
 * Remembers an answer's typed data or intentOp a client may sign later (the last few only).
 *
 * @example
 * signable(draft.intentOpSources, source)
 */
export function signable(list: Source[], source: Source): void {
  list.push(source)
  if (list.length > MAX_SIGNABLE_SOURCES) list.shift()
}

/**
 * Remembers the lists of a step's answer a client may pick an element of (the last few steps only).
 *
 * @example
 * rememberLists(draft, 2, [{ pointer: '/routes', identities }])
 */
export function rememberLists(draft: Draft, stepIndex: number, lists: ChoiceList[]): void {
  if (lists.length === 0) return
  draft.lists.set(stepIndex, lists)
  if (draft.lists.size > MAX_SIGNABLE_SOURCES) draft.lists.delete(draft.lists.keys().next().value as number)
}

/**
 * A value the run supplies (its key, webhook inbox, devnet accounts) as its variable; others as recorded.
 *
 * @example
 * substituteKnown(draft, '0xf39F…2266') // '${accounts.0.address}'
 */
export function substituteKnown(draft: Draft, value: unknown): unknown {
  if (typeof value !== 'string') return value
  const { recording } = draft
  if (draft.hasKey && value === recording.apiKey) return placeholder('apiKey')
  if (recording.webhookUrls.some((prefix) => value.startsWith(prefix))) return placeholder('webhook.url')
  if (recording.webhookSecrets.includes(value)) return placeholder('webhook.secret')
  const index = draft.accounts.indexOf(value as Address)
  return index >= 0 ? `\${accounts.${index}.address}` : value
}

/**
 * A recorded value as the scenario writes it: `${…}` for what an earlier step answered or the run supplies.
 *
 * @example
 * substitute(draft, '0xcf67…') // '${intentId}'
 */
export function substitute(draft: Draft, value: unknown): unknown {
  if (typeof value === 'string') {
    const { recording } = draft
    if (draft.hasKey && value === recording.apiKey) return placeholder('apiKey')
    if (recording.webhookUrls.some((prefix) => value.startsWith(prefix))) {
      draft.usesWebhook = true
      return placeholder('webhook.url')
    }
    if (recording.webhookSecrets.includes(value)) {
      draft.usesWebhook = true
      return placeholder('webhook.secret')
    }
    const index = draft.accounts.indexOf(value as Address)
    if (index >= 0) return `\${accounts.${index}.address}`
  }
  const source = draft.sources.get(String(value))
  if (
    source &&
    typeof source.value === typeof value &&
    (typeof value === 'string' || typeof value === 'number')
  )
    return reference(draft, source)
  return value
}

/**
 * {@link substitute} on every leaf of a JSON value.
 *
 * @example
 * substituteDeep(draft, { account: '0xf39F…2266' })
 */
export function substituteDeep(draft: Draft, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => substituteDeep(draft, v))
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(draft, v)]))
  return substitute(draft, value)
}

/**
 * {@link substitute} on a path's segments and query values.
 *
 * @example
 * substitutePath(draft, '/intents/0xcf67…') // '/intents/${intentId}'
 */
export function substitutePath(draft: Draft, path: string): string {
  const [bare = '', query] = path.split('?')
  const segments = bare.split('/').map((segment) => {
    const decoded = decodeURIComponent(segment)
    const out = segment === '' ? segment : substitute(draft, decoded)
    return typeof out === 'string' && out !== decoded ? out : segment
  })
  if (query === undefined) return segments.join('/')
  const params = query.split('&').map((pair) => {
    const [k = '', v] = pair.split('=')
    if (v === undefined) return pair
    const out = substitute(draft, decodeURIComponent(v))
    return typeof out === 'string' && out !== decodeURIComponent(v) ? `${k}=${out}` : pair
  })
  return `${segments.join('/')}?${params.join('&')}`
}

/**
 * The devnet account index of an address, or `${key.<address>}` (the replay needs its key).
 *
 * @example
 * keyOf(draft, '0xf39F…2266') // 0
 */
export function keyOf(draft: Draft, address: string): number | string {
  const index = draft.accounts.indexOf(getAddress(address))
  if (index >= 0) return index
  draft.keysNeeded.add(getAddress(address))
  return `\${key.${getAddress(address)}}`
}

/**
 * Hands a step on (checked against the pack format first) and counts it.
 *
 * @example
 * await push(draft, step, '+0.505s: answered in 62 ms')
 */
export async function push(draft: Draft, step: Step, comment: string): Promise<void> {
  const index = draft.emitted++
  if (!draft.onStep) return
  const checked = ScenarioStep.safeParse(step)
  if (!checked.success)
    throw new Error(
      `The recording makes an invalid step ${index + 1} (${String(step.name)}): ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    )
  await draft.onStep(step, comment)
}
