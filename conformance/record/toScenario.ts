import {
  type Address,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  isAddress,
  parseTransaction,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  type TransactionSerialized,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { specSchemas } from '../../spec'
import { jsonEqual } from '../runner/matchers'
import { parseJsonExact } from '../runner/parseJsonExact'
import { signIntentOp } from '../runner/signIntentOp'
import { VERSION_HEADERS } from '../runner/versionHeaders'
import { Scenario, Step as ScenarioStep } from '../scenario/schema'
import { journalEvents } from './journal'
import type { RecordedExchange, RecordedTransaction, RecordedWebhook, Recording } from './recording'
import { routeSchema } from './routeSchema'
import { isIdentity, isSignature, isVolatileLeaf, leaves, subtrees } from './volatile'

/** Parameters of {@link toScenario}. */
export type ToScenarioParameters = {
  /** The scenario id (lower-case letters, digits, dots and dashes). */
  id: string
  title?: string | undefined
  /** The most body matchers one step gets (default 60); the rest of a large answer is left to its schema. */
  maxBodyMatchers?: number | undefined
  /**
   * Each step as soon as it is made, with its comment (when it happened, how long the answer
   * took), without its captures: a step's captures are known only once a later step uses them,
   * and the result's `captures` has them by step index (a writer adds each as the step's last key).
   */
  onStep?: ((step: Record<string, unknown>, comment: string) => void | Promise<void>) | undefined
}

/** What a pass over a recording found: the scenario's head and what its file's header says. */
export type ToScenarioReturnType = {
  /** The scenario in the pack format without its steps (input form: defaults are left out). */
  scenario: Record<string, unknown>
  /** How many steps it has. */
  steps: number
  /** The captures each step needs (`capture`, its last key), by step index. */
  captures: Map<number, Record<string, string>>
  /** What a reader of the file should know (keys needed, what was not replayable). */
  notes: string[]
  /** Addresses whose private key the replay needs (`--key ADDRESS=KEY`), as `${key.<address>}`. */
  keysNeeded: Address[]
}

type Step = Record<string, unknown> & { capture?: Record<string, string> }
type Source = {
  /** The index of the step whose answer holds the value. */
  stepIndex: number
  kind: 'http' | 'webhook' | 'chain'
  pointer: string
  value: unknown
  name?: string
}

/**
 * How much of the past a long recording keeps to link values (volatile values seen; answers that
 * held typed data or an intentOp a client may sign): enough for any session a person drives, and
 * it bounds the memory a recording of a load test costs. A value older than this is written as
 * recorded instead of as a reference.
 */
const MAX_SOURCES = 200_000
const MAX_SIGNABLE_SOURCES = 64
/** Notes beyond this many are counted, not listed. */
const MAX_NOTES = 50

/** `${name}`: a reference to a variable, as a scenario writes it. */
const placeholder = (name: string) => `\${${name}}`

/** Variables the runner sets itself; a capture never takes their names. */
const RESERVED = new Set(['apiKey', 'target', 'now', 'quoteTtlSeconds'])
/** Status paths a client polls until a state; replayed with `poll`. */
const STATUS_PATH = /^\/(intent-operation|intents)\/[^/]+$|^\/deposit-processor\/deposits/

/**
 * Turns a recording into a scenario of the packs' format: one step per exchange (consecutive
 * identical polls become one polling step), volatile values (ids, nonces, signatures, hashes,
 * timestamps) as captures and `${…}` references, each answer as expectations on its status, the
 * spec schema of its route (or the error envelope) and its stable fields. Signatures the client
 * made over server data become `sign` / `signIntentOp` steps with the devnet account's key, or
 * with `${key.<address>}` when the signer is not a devnet account. Transactions sent through the
 * RPC proxies become chain steps; webhooks the target delivered become webhook expectations.
 *
 * Memory stays bounded whatever the recording's length: events are read from the journal one at a
 * time and each step is handed to `onStep` as soon as it is made.
 *
 * @example
 * const { scenario, captures } = await toScenario(recording, { id: 'recorded.wrong-status', onStep: write })
 */
export async function toScenario(
  recording: Recording,
  parameters: ToScenarioParameters,
): Promise<ToScenarioReturnType> {
  const maxMatchers = parameters.maxBodyMatchers ?? 60
  let emitted = 0
  // A recording read back from its journal has no key (the journal never holds it).
  const hasKey = recording.apiKey.length > 0
  const captures = new Map<number, Record<string, string>>()
  const noteSet = new Set<string>()
  let notesLeftOut = 0
  const notes = {
    push(note: string) {
      if (noteSet.has(note)) return
      if (noteSet.size >= MAX_NOTES) notesLeftOut++
      else noteSet.add(note)
    },
  }
  const keysNeeded = new Set<Address>()
  const sources = new Map<string, Source>()
  const typedDataSources: Source[] = []
  const intentOpSources: Source[] = []
  const names = new Set<string>()
  const suffixes = new Map<string, number>()
  const accounts = recording.accountKeys.map((key) => privateKeyToAccount(key).address)
  const requestAddresses = new Set<string>()
  let usesWebhook = false
  let usesChains = false

  const freshName = (pointer: string, suffix = '') => {
    const segments = pointer.split('/').filter((s) => s !== '' && !/^\d+$/.test(s))
    const last = (segments.at(-1) ?? 'value').replace(/[^\w]/g, '_')
    let base = `${/^[A-Za-z_]/.test(last) ? last : `v_${last}`}${suffix}`
    if (RESERVED.has(base)) base = `recorded_${base}`
    let name = base
    // Counting on from the last suffix of this base: a long recording has thousands of `id`s.
    for (let i = suffixes.get(base) ?? 2; names.has(name); i++) {
      name = `${base}${i}`
      suffixes.set(base, i + 1)
    }
    names.add(name)
    return name
  }
  /** The variable that reads a source: added to its step's captures the first time it is used. */
  const reference = (source: Source): string => {
    if (!source.name) {
      source.name = freshName(source.pointer)
      captures.set(source.stepIndex, {
        ...captures.get(source.stepIndex),
        [source.name]: source.kind === 'chain' ? 'hash' : source.pointer,
      })
    }
    return `\${${source.name}}`
  }
  const register = (source: Source) => {
    const key = String(source.value)
    if (key.length >= 6 && !sources.has(key)) {
      sources.set(key, source)
      // The oldest first (a Map keeps insertion order).
      if (sources.size > MAX_SOURCES) sources.delete(sources.keys().next().value as string)
    }
  }
  const signable = (list: Source[], source: Source) => {
    list.push(source)
    if (list.length > MAX_SIGNABLE_SOURCES) list.shift()
  }
  /** A value the run supplies (its key, webhook inbox, devnet accounts) as its variable; others as recorded. */
  const substituteKnown = (value: unknown): unknown => {
    if (typeof value !== 'string') return value
    if (hasKey && value === recording.apiKey) return placeholder('apiKey')
    if (recording.webhookUrls.some((prefix) => value.startsWith(prefix))) return placeholder('webhook.url')
    if (recording.webhookSecrets.includes(value)) return placeholder('webhook.secret')
    const index = accounts.indexOf(value as Address)
    return index >= 0 ? `\${accounts.${index}.address}` : value
  }
  /** A recorded value as the scenario writes it: `${…}` for what an earlier step answered or the run supplies. */
  const substitute = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (hasKey && value === recording.apiKey) return placeholder('apiKey')
      if (recording.webhookUrls.some((prefix) => value.startsWith(prefix))) {
        usesWebhook = true
        return placeholder('webhook.url')
      }
      if (recording.webhookSecrets.includes(value)) {
        usesWebhook = true
        return placeholder('webhook.secret')
      }
      const index = accounts.indexOf(value as Address)
      if (index >= 0) return `\${accounts.${index}.address}`
    }
    const source = sources.get(String(value))
    if (
      source &&
      typeof source.value === typeof value &&
      (typeof value === 'string' || typeof value === 'number')
    )
      return reference(source)
    return value
  }
  const substituteDeep = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(substituteDeep)
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(v)]))
    return substitute(value)
  }
  const substitutePath = (path: string): string => {
    const [bare = '', query] = path.split('?')
    const segments = bare.split('/').map((segment) => {
      const decoded = decodeURIComponent(segment)
      const out = segment === '' ? segment : substitute(decoded)
      return typeof out === 'string' && out !== decoded ? out : segment
    })
    if (query === undefined) return segments.join('/')
    const params = query.split('&').map((pair) => {
      const [k = '', v] = pair.split('=')
      if (v === undefined) return pair
      const out = substitute(decodeURIComponent(v))
      return typeof out === 'string' && out !== decodeURIComponent(v) ? `${k}=${out}` : pair
    })
    return `${segments.join('/')}?${params.join('&')}`
  }
  const keyOf = (address: string): number | string => {
    const index = accounts.indexOf(getAddress(address))
    if (index >= 0) return index
    keysNeeded.add(getAddress(address))
    return `\${key.${getAddress(address)}}`
  }
  const push = async (step: Step, comment: string) => {
    const index = emitted++
    if (!parameters.onStep) return
    const checked = ScenarioStep.safeParse(step)
    if (!checked.success)
      throw new Error(
        `The recording makes an invalid step ${index + 1} (${String(step.name)}): ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      )
    await parameters.onStep(step, comment)
  }
  const seconds = (ms: number) => `+${(ms / 1000).toFixed(3)}s`

  for await (const group of groupEvents(recording)) {
    if (group.kind === 'http') {
      const { first, last, count } = group
      if (!last.response) {
        notes.push(
          `${last.method} ${last.path} at ${seconds(last.at)} got no answer (${last.error}); not replayed.`,
        )
        continue
      }
      const version = versionOf(last.headers['x-api-version'])
      const speaks = typeof version === 'string' && version !== 'omit' ? version : 'blanc'
      const http: Record<string, unknown> = {
        method: last.method,
        path: substitutePath(last.path),
        ...(last.apiKey !== 'default' && { apiKey: last.apiKey }),
        version,
      }
      const extraHeaders = Object.fromEntries(
        Object.entries(last.headers).filter(
          ([k, v]) => k !== 'x-api-version' && !(k === 'content-type' && /^application\/json/.test(v)),
        ),
      )
      if (Object.keys(extraHeaders).length > 0) http.headers = extraHeaders
      const preSteps: { step: Step; comment: string }[] = []
      if (last.body !== undefined) {
        const parsed = tryJson(last.body)
        if (parsed.ok && !hasUnsafeIntegers(last.body)) {
          for (const leaf of leaves(parsed.value))
            if (typeof leaf.value === 'string' && isAddress(leaf.value, { strict: false }))
              requestAddresses.add(leaf.value.toLowerCase())
          const signed = await signaturesOf(parsed.value)
          http.body = substituteDeep(signed.value)
          preSteps.push(...signed.steps)
        } else {
          let text = last.body
          for (const [key, source] of sources)
            if (key.length >= 10 && text.includes(key)) text = text.split(key).join(reference(source))
          if (hasKey && text.includes(recording.apiKey))
            text = text.split(recording.apiKey).join(placeholder('apiKey'))
          http.rawBody = text
        }
      }
      const response = last.response
      const json = tryJsonExact(response.body)
      const expect: Record<string, unknown> = { status: response.status }
      const titleNotes: string[] = []
      if (response.status < 400) {
        const schema = routeSchema(last.method, last.path, speaks)
        if (schema && json.ok) {
          const parsedSchema = specSchemas[schema].schema.safeParse(json.value)
          if (parsedSchema.success) expect.schema = schema
          else titleNotes.push(`the recorded answer broke ${schema}`)
        }
      } else if (json.ok) {
        const envelope = errorEnvelope(json.value, response.headers['x-trace-id'], speaks)
        if (envelope) expect.envelope = envelope
      }
      const step: Step = { name: '', http, expect }
      const stepIndex = emitted + preSteps.length
      if (json.ok) {
        const body: Record<string, unknown> = {}
        for (const leaf of leaves(json.value)) {
          const existing = sources.get(String(leaf.value))
          if (
            existing &&
            existing.stepIndex !== stepIndex &&
            typeof existing.value === typeof leaf.value &&
            (typeof leaf.value === 'string' || typeof leaf.value === 'number')
          ) {
            if (Object.keys(body).length < maxMatchers) body[leaf.pointer] = { equals: reference(existing) }
            continue
          }
          if (isVolatileLeaf(leaf)) {
            if (isIdentity(leaf.key, leaf.value))
              register({ stepIndex, kind: 'http', pointer: leaf.pointer, value: leaf.value })
            continue
          }
          // EIP-712 type lists are checked by the signature made over them, not field by field.
          if (/\/types\/[^/]+\/\d+\/(name|type)$/.test(leaf.pointer)) continue
          if (Object.keys(body).length < maxMatchers)
            body[leaf.pointer] = { equals: substituteKnown(leaf.value) }
        }
        if (Object.keys(body).length > 0) expect.body = body
        for (const tree of subtrees(json.value)) {
          if (
            isTypedData(tree.value) ||
            (Array.isArray(tree.value) && tree.value.length > 0 && tree.value.every(isTypedData))
          )
            signable(typedDataSources, { stepIndex, kind: 'http', pointer: tree.pointer, value: tree.value })
          if (tree.key === 'intentOp' && typeof tree.value === 'object' && !Array.isArray(tree.value))
            signable(intentOpSources, { stepIndex, kind: 'http', pointer: tree.pointer, value: tree.value })
        }
      }
      const polled = last.method === 'GET' && (count > 1 || STATUS_PATH.test(last.path.split('?')[0] ?? ''))
      if (polled) step.poll = { timeoutSeconds: 60, intervalMs: 500 }
      step.name = `${last.method} ${http.path as string} → ${response.status}${count > 1 ? ` (polled ${count} times)` : ''}${titleNotes.length ? ` (${titleNotes.join('; ')})` : ''}`
      for (const pre of preSteps) await push(pre.step, pre.comment)
      await push(
        step,
        `${seconds(first.at)}: ${count > 1 ? `${count} requests, the last` : 'answered'} in ${last.durationMs} ms`,
      )
    } else if (group.kind === 'chain') {
      const step = await chainStep(group.event)
      if (!step) continue
      usesChains = true
      const stepIndex = emitted
      await push(step, `${seconds(group.event.at)}: ${group.event.method} on chain ${group.event.chainId}`)
      if (group.event.hash) register({ stepIndex, kind: 'chain', pointer: 'hash', value: group.event.hash })
    } else {
      const step = webhookStep(group.event)
      if (!step) continue
      usesWebhook = true
      await push(step, `${seconds(group.event.at)}: delivered, signature ${group.event.signature}`)
    }
  }

  /**
   * Signatures in a request body that the client made over typed data an earlier answer gave
   * (blanc `signData`) or over an earlier `intentOp` (alps): replaced by the variable of a
   * `sign` / `signIntentOp` step that re-makes them at replay.
   */
  async function signaturesOf(
    body: unknown,
  ): Promise<{ value: unknown; steps: { step: Step; comment: string }[] }> {
    const made: { step: Step; comment: string }[] = []
    const walk = async (value: unknown, pointer: string): Promise<unknown> => {
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        const o = value as Record<string, unknown>
        if (Array.isArray(o.originSignatures) && typeof o.destinationSignature === 'string') {
          const replaced = await alpsSignatures(o)
          if (replaced) return replaced
        }
        const out: Record<string, unknown> = {}
        for (const [k, v] of Object.entries(o)) out[k] = await walk(v, `${pointer}/${k}`)
        return out
      }
      const all = Array.isArray(value) ? value : [value]
      if (all.length > 0 && all.every(isSignature) && !sources.has(String(value))) {
        const replaced = await blancSignatures(value as Hex | Hex[], pointer)
        if (replaced) return replaced
      }
      if (!Array.isArray(value)) return value
      const out: unknown[] = []
      for (const [i, v] of value.entries()) out.push(await walk(v, `${pointer}/${i}`))
      return out
    }
    const alpsSignatures = async (signed: Record<string, unknown>): Promise<string | undefined> => {
      const { originSignatures, destinationSignature, ...op } = signed
      // A client may leave out the intentOp's empty lists (the SDK 1.x drops `signedAuthorizations: []`).
      const source = [...intentOpSources].reverse().find((s) => {
        const given = s.value as Record<string, unknown>
        const kept = Object.fromEntries(
          Object.entries(given).filter(([k, v]) => k in op || !(Array.isArray(v) && v.length === 0)),
        )
        return jsonEqual(kept, op)
      })
      if (!source || typeof op.sponsor !== 'string') return undefined
      const account = keyOf(op.sponsor)
      const name = freshName('/signedIntentOp')
      const step: Step = {
        name:
          typeof account === 'number'
            ? `sign the intentOp as devnet account ${account} (${getAddress(op.sponsor)})`
            : `sign the intentOp (needs the key of ${getAddress(op.sponsor)}: replay --key ${getAddress(op.sponsor)}=<private key>)`,
        signIntentOp: { intentOp: reference(source), account },
        captureAs: name,
      }
      made.push({ step, comment: 'the client signed the intentOp the route answered' })
      if (typeof account === 'number') {
        const problem = await signIntentOp(op, privateKeyToAccount(recording.accountKeys[account]!)).then(
          (again) =>
            // The SDK 1.x and the runner both send the last origin signature as the destination's;
            // for Compact funding the SDK 1.15 signs the older Compact's domain (bytes differ).
            jsonEqual(again.originSignatures, originSignatures) &&
            (again.destinationSignature === destinationSignature ||
              destinationSignature === again.originSignatures.at(-1))
              ? undefined
              : `step "${step.name}": the client's signatures differ from the ones the runner makes (SDK 1.x signing); the replay submits the runner's.`,
          (error: unknown) =>
            `step "${step.name}": ${error instanceof Error ? error.message : String(error)}`,
        )
        if (problem) notes.push(problem)
      }
      return `\${${name}}`
    }
    const blancSignatures = async (value: Hex | Hex[], pointer: string): Promise<string | undefined> => {
      const list = Array.isArray(value) ? value : [value]
      for (const source of [...typedDataSources].reverse()) {
        const data = source.value
        if (Array.isArray(value) !== Array.isArray(data)) continue
        const datas = (Array.isArray(data) ? data : [data]) as TypedDataJson[]
        if (datas.length !== list.length) continue
        const signer = await recoveredSigner(datas, list)
        if (!signer) continue
        const known = accounts.includes(signer)
        if (
          !known &&
          !requestAddresses.has(signer.toLowerCase()) &&
          !JSON.stringify(datas).toLowerCase().includes(signer.toLowerCase().slice(2))
        )
          continue
        const account = keyOf(signer)
        const name = freshName(pointer, 'Signed')
        made.push({
          step: {
            name:
              typeof account === 'number'
                ? `sign the typed data of ${source.pointer} as devnet account ${account} (${signer})`
                : `sign the typed data of ${source.pointer} (needs the key of ${signer}: replay --key ${signer}=<private key>)`,
            sign: { typedData: reference(source), account },
            captureAs: name,
          },
          comment: 'the client signed typed data an earlier answer gave',
        })
        return `\${${name}}`
      }
      notes.push(
        `a signature at ${pointer} was made over data the recording does not show; it is replayed as recorded.`,
      )
      return undefined
    }
    return { value: await walk(body, ''), steps: made }
  }

  async function recoveredSigner(datas: TypedDataJson[], signatures: Hex[]): Promise<Address | undefined> {
    const found = await Promise.all(signatures.map((signature, i) => recoverTyped(datas[i]!, signature)))
    const first = found[0]
    return first && found.every((a) => a === first) ? first : undefined
  }

  async function chainStep(event: RecordedTransaction): Promise<Step | undefined> {
    let from: Address
    let to: Address | undefined
    let data: Hex = '0x'
    let value = 0n
    if (event.error) {
      notes.push(
        `a transaction on chain ${event.chainId} at +${event.at} ms was refused (${event.error}); not replayed.`,
      )
      return undefined
    }
    if (event.method === 'eth_sendRawTransaction') {
      const raw = event.params as TransactionSerialized
      const tx = parseTransaction(raw)
      const sender = await recoverTransactionAddress({ serializedTransaction: raw }).catch(() => undefined)
      if (!sender) {
        notes.push(`a raw transaction on chain ${event.chainId} has no recoverable sender; not replayed.`)
        return undefined
      }
      from = sender
      to = tx.to ?? undefined
      data = tx.data ?? '0x'
      value = tx.value ?? 0n
    } else {
      const p = event.params as { from: Address; to?: Address; data?: Hex; input?: Hex; value?: Hex }
      from = getAddress(p.from)
      to = p.to ?? undefined
      data = p.data ?? p.input ?? '0x'
      value = BigInt(p.value ?? 0)
    }
    if (!to) {
      notes.push(`a contract creation on chain ${event.chainId} is not replayable as a chain step; left out.`)
      return undefined
    }
    const account = keyOf(from)
    const who = typeof account === 'number' ? `devnet account ${account}` : `${from} (needs its key)`
    const base = { chainId: event.chainId, from: account }
    try {
      const call = decodeFunctionData({ abi: erc20Abi, data })
      if (call.functionName === 'transfer' && value === 0n) {
        const [recipient, amount] = call.args
        return {
          name: `${who} transfers ${amount} of token ${to} on chain ${event.chainId}`,
          chain: {
            action: 'transfer',
            ...base,
            to: substitute(recipient),
            token: substitute(to),
            amount: String(amount),
          },
        }
      }
      if (call.functionName === 'approve' && value === 0n) {
        const [spender, amount] = call.args
        return {
          name: `${who} approves ${spender} for token ${to} on chain ${event.chainId}`,
          chain: {
            action: 'approve',
            ...base,
            token: substitute(to),
            spender: substitute(spender),
            amount: String(amount),
          },
        }
      }
    } catch {}
    return {
      name: `${who} sends a transaction to ${to} on chain ${event.chainId}`,
      chain: { action: 'sendTransaction', ...base, to: substitute(to), data, value: String(value) },
    }
  }

  function webhookStep(event: RecordedWebhook): Step | undefined {
    const json = tryJsonExact(event.body)
    const type = json.ok ? (json.value as { type?: unknown })?.type : undefined
    if (!json.ok || typeof type !== 'string') {
      notes.push(`a webhook at +${event.at} ms has no type; not replayed.`)
      return undefined
    }
    const stepIndex = emitted
    const step: Step = {
      name: `the target delivers a ${type} webhook (signature ${event.signature})`,
      webhook: { type, withinSeconds: 30, signature: event.signature },
    }
    const where: Record<string, unknown> = {}
    const body: Record<string, unknown> = {}
    for (const leaf of leaves(json.value)) {
      if (leaf.pointer === '/type') continue
      const existing = sources.get(String(leaf.value))
      let matcher: unknown
      if (
        existing &&
        existing.stepIndex !== stepIndex &&
        typeof existing.value === typeof leaf.value &&
        (typeof leaf.value === 'string' || typeof leaf.value === 'number')
      )
        matcher = { equals: reference(existing) }
      else if (isVolatileLeaf(leaf)) {
        if (isIdentity(leaf.key, leaf.value))
          register({ stepIndex, kind: 'webhook', pointer: leaf.pointer, value: leaf.value })
        continue
      } else matcher = { equals: substituteKnown(leaf.value) }
      if (Object.keys(where).length < 3 && /account|address|chain|token|amount/i.test(String(leaf.key)))
        where[leaf.pointer] = matcher
      else if (Object.keys(body).length < maxMatchers) body[leaf.pointer] = matcher
    }
    const hook = step.webhook as Record<string, unknown>
    if (Object.keys(where).length > 0) hook.where = where
    if (Object.keys(body).length > 0) hook.body = body
    return step
  }

  if (emitted === 0) throw new Error('The recording holds no exchange to replay.')
  const capabilities = [...(usesChains ? ['chains'] : []), ...(usesWebhook ? ['webhooks'] : [])]
  const scenario: Record<string, unknown> = {
    id: parameters.id,
    title:
      parameters.title ??
      `Session recorded against ${recording.target} on ${recording.startedAt.slice(0, 10)}`,
    spec: 'Recorded session (docs/record-replay.md): every step behaves as recorded',
    ...(capabilities.length > 0 && { requires: { capabilities } }),
  }
  // The head checked with a stand-in step (each step was checked as it was made).
  const parsed = Scenario.safeParse({ ...scenario, steps: [{ wait: 0 }] })
  if (!parsed.success)
    throw new Error(
      `The recording makes no valid scenario: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    )
  const allNotes = [...noteSet]
  if (notesLeftOut > 0) allNotes.push(`… and ${notesLeftOut} more notes like these.`)
  return { scenario, steps: emitted, captures, notes: allNotes, keysNeeded: [...keysNeeded] }
}

type TypedDataJson = {
  domain: Record<string, unknown>
  types: Record<string, unknown>
  primaryType: string
  message: Record<string, unknown>
}

const isTypedData = (value: unknown): value is TypedDataJson =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  'types' in value &&
  'primaryType' in value &&
  'domain' in value &&
  'message' in value

/** The address that signed typed data as given (the runner signs it the same way: EIP712Domain implied). */
async function recoverTyped(data: TypedDataJson, signature: Hex): Promise<Address | undefined> {
  const { EIP712Domain: _, ...types } = data.types
  try {
    return await recoverTypedDataAddress({
      domain: data.domain,
      types,
      primaryType: data.primaryType,
      message: data.message,
      signature,
    } as unknown as Parameters<typeof recoverTypedDataAddress>[0])
  } catch {
    return undefined
  }
}

type Group =
  | { kind: 'http'; first: RecordedExchange; last: RecordedExchange; count: number }
  | { kind: 'chain'; event: RecordedTransaction }
  | { kind: 'webhook'; event: RecordedWebhook }

/** The recording's events in order (read from its journal), consecutive identical GETs (a client polling) as one group. */
async function* groupEvents(recording: Recording): AsyncGenerator<Group> {
  let previous: Group | undefined
  for await (const event of journalEvents(recording.journal)) {
    if (event.kind !== 'http') {
      if (previous) yield previous
      previous = undefined
      yield event.kind === 'chain' ? { kind: 'chain', event } : { kind: 'webhook', event }
      continue
    }
    if (
      previous?.kind === 'http' &&
      event.method === 'GET' &&
      previous.last.method === 'GET' &&
      previous.last.path === event.path &&
      previous.last.apiKey === event.apiKey &&
      jsonEqual(previous.last.headers, event.headers)
    ) {
      previous.last = event
      previous.count++
    } else {
      if (previous) yield previous
      previous = { kind: 'http', first: event, last: event, count: 1 }
    }
  }
  if (previous) yield previous
}

function versionOf(header: string | undefined): 'alps' | 'blanc' | 'omit' | { raw: string } {
  if (header === undefined) return 'omit'
  if (header === VERSION_HEADERS.alps) return 'alps'
  if (header === VERSION_HEADERS.blanc) return 'blanc'
  return { raw: header }
}

/** The error envelope a body is, checked as the runner checks it (its traceId equals `x-trace-id`). */
function errorEnvelope(json: unknown, traceHeader: string | undefined, speaks: 'alps' | 'blanc') {
  const order = speaks === 'alps' ? (['alps', 'blanc'] as const) : (['blanc', 'alps'] as const)
  return order.find((version) => {
    const schema = specSchemas[version === 'alps' ? 'AlpsErrorEnvelope' : 'BlancErrorEnvelope'].schema
    if (!schema.safeParse(json).success) return false
    const traceId = (json as { traceId?: unknown }).traceId
    return traceHeader === undefined || traceId === traceHeader
  })
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

function tryJsonExact(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseJsonExact(text) }
  } catch {
    return { ok: false }
  }
}

/** Whether a JSON text holds a whole number beyond 2^53 (re-serializing it would change it). */
function hasUnsafeIntegers(text: string): boolean {
  return /[:[,]\s*-?\d{16,}\s*[,}\]]/.test(text)
}
