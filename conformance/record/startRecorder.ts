import { mkdtemp, readFile } from 'node:fs/promises'
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { type AddressInfo, createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { parse as parseYaml } from 'yaml'
import { ChainsFile } from '../runner/detectCapabilities'
import { verifyWebhookSignature } from '../runner/webhookReceiver'
import { captureTarget, RecorderError } from './captureTarget'
import { type JournalWriter, openJournal } from './journal'
import type { RecordedExchange, RecordedTransaction, RecordedWebhook, Recording } from './recording'
import {
  HOP_HEADERS,
  type LocalAnswer,
  type Relay,
  type RelayHandlers,
  type RequestHead,
  relayConnection,
} from './relayConnection'

/** Parameters of {@link startRecorder}. */
export type StartRecorderParameters = {
  /** Base URL of the target (the simulator, a vendor's service, the public service). */
  target: string
  /** The key the client uses; it is never written. */
  apiKey: string
  /** Port of the proxy (default 4001; 0: any free port). */
  port?: number | undefined
  /** Default 127.0.0.1. */
  host?: string | undefined
  /** A `--chains` file (RPC URLs, funded keys) for a target without `GET /_devnet/manifest`. */
  chainsFile?: string | undefined
  /**
   * Where the journal goes (every event, appended as it happens; see `journal.ts`). Default: a
   * temporary file, which {@link writeRecording} removes once the scenario is written.
   */
  journal?: string | undefined
  /** Called once when a client asks `POST /_record/stop`; its answer is sent back as JSON. */
  onStopRequest?: ((recording: Recording) => Promise<unknown>) | undefined
}

/** A running recorder. */
export type Recorder = {
  /** The proxy's base URL: point the client here instead of at the target. */
  url: string
  /** Per chain, the RPC proxy URL (the client's chain calls go here; transactions are recorded). */
  rpcUrls: Record<number, string>
  /** What was recorded so far (its counts; the events are in the journal). */
  recording(): Recording
  /** Stops listening, lets the exchanges in flight end, closes the journal (idempotent); returns the recording. */
  stop(): Promise<Recording>
}

export { RecorderError }

/** The default port of `intent-devnet record`. */
export const DEFAULT_RECORD_PORT = 4001

/** Request headers a scenario does not need (the runner sets its own, or they say nothing about the service). */
const UNRECORDED_REQUEST_HEADERS = new Set([
  ...HOP_HEADERS,
  'x-api-key',
  'user-agent',
  'accept',
  'accept-language',
  'origin',
  'referer',
  'cookie',
  'cache-control',
  'pragma',
])

/**
 * Starts a recording proxy in front of any target. A client pointed at it works as against the
 * target; every exchange is recorded (the API key redacted). When the target is an intent-devnet
 * (it answers `GET /_devnet/manifest`), the chains' state and the clock are captured first, the
 * manifest the client reads names the recorder's per-chain RPC proxies (whose transactions are
 * recorded), and a webhook URL a request configures is replaced by the recorder's stand-in
 * receiver, which records each delivery and forwards it to the client's URL.
 *
 * @example
 * const recorder = await startRecorder({ target: 'http://127.0.0.1:4000', apiKey: 'key', port: 0 })
 * // … the client talks to recorder.url …
 * const recording = await recorder.stop()
 * await writeRecording(recording, 'bug.yaml')
 */
export async function startRecorder(parameters: StartRecorderParameters): Promise<Recorder> {
  const target = parameters.target.replace(/\/+$/, '')
  const started = performance.now()
  const at = (time = performance.now()) => Math.round(time - started)
  let seq = 0
  const targetUrl = new URL(target)
  const agent =
    targetUrl.protocol === 'https:'
      ? new HttpsAgent({ keepAlive: true, maxSockets: 16 })
      : new HttpAgent({ keepAlive: true, maxSockets: 16 })

  const probe = await captureTarget(target, parameters.apiKey)
  const chainsFile = parameters.chainsFile ? await readChainsFile(parameters.chainsFile) : undefined
  const chains: { chainId: number; rpcUrl: string }[] =
    chainsFile?.chains ?? probe.manifest?.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })) ?? []
  const manifestAccountKeys = (probe.manifest?.accounts ?? []).map((a) => a.privateKey) as Hex[]
  const accountKeys = [...((chainsFile?.accounts ?? []) as Hex[]), ...manifestAccountKeys]
  const { chainState, chainStateProblem } = probe

  const webhookTargets: (string | undefined)[] = []
  const webhookSecrets = new Set<string>()
  let base = ''
  const startedAtIso = new Date().toISOString()
  let stopRequested = false
  // Every event goes to the journal as it ends (bodies as the bytes that crossed the proxy, never
  // decoded on the hot path); the recorder keeps only counts.
  let journal: JournalWriter | undefined
  let journalDir: string | undefined
  const recording = (): Recording => {
    journal?.flush()
    return {
      target,
      startedAt: startedAtIso,
      apiKey: parameters.apiKey,
      journal: journal?.path ?? '',
      counts: { ...(journal?.counts ?? { http: 0, chain: 0, webhook: 0 }) },
      manifest: probe.manifestRaw,
      accountKeys: [...new Set(accountKeys)],
      chainState,
      chainStateProblem,
      webhookUrls: [`${base}/_record/webhook/`],
      webhookSecrets: [...webhookSecrets],
      faultsAtStart: probe.faults,
    }
  }

  const handlers: RelayHandlers<{ seq: number; at: number }> = {
    target: targetUrl,
    local(head) {
      if (!head.path.startsWith('/_record/')) return undefined
      return (body) => handleRecorderPath(head, body)
    },
    begin: () => ({ seq: ++seq, at: at() }),
    rewriteRequest(head, raw) {
      // Only a body that mentions a webhook can need rewriting: the others are not parsed here.
      if (
        raw.length === 0 ||
        !raw.includes('webhook') ||
        !/json/.test(head.headers['content-type'] ?? 'application/json')
      )
        return undefined
      const rewritten = replaceWebhookUrls(raw.toString('utf8'))
      return rewritten === undefined ? undefined : Buffer.from(rewritten)
    },
    rewritesResponse: (head) => head.path.split('?')[0] === '/_devnet/manifest',
    rewriteResponse(status, headers, body) {
      if (status !== 200 || !/json/.test(headers['content-type'] ?? '')) return body
      return Buffer.from(rewriteManifest(body.toString('utf8')))
    },
    done(exchange, token) {
      journal?.exchange(
        {
          kind: 'http',
          seq: token.seq,
          at: token.at,
          durationMs: Math.round(exchange.ended - exchange.started),
          method: exchange.head.method,
          path: exchange.head.path,
          headers: recordedHeaders(exchange.head.headers),
          apiKey: apiKeyMode(exchange.head.headers['x-api-key'], parameters.apiKey),
          status: exchange.status,
          responseHeaders:
            exchange.status === undefined ? undefined : recordedResponseHeaders(exchange.responseHeaders),
          error: exchange.error,
        },
        exchange.requestBody.length > 0 ? exchange.requestBody : undefined,
        exchange.status === undefined ? undefined : exchange.responseBody,
      )
    },
  }
  const relays = new Set<Relay>()
  // Half-open: a client may end its side once it has sent a request and still wait for the answer.
  const server = createNetServer({ allowHalfOpen: true }, (socket) => {
    const relay = relayConnection(socket, handlers)
    relays.add(relay)
    void relay.closed.then(() => relays.delete(relay))
  })

  async function handleRecorderPath(head: RequestHead, raw: Buffer): Promise<LocalAnswer> {
    const json = (status: number, value: unknown): LocalAnswer => ({
      status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(value),
    })
    const path = head.path
    const rpcMatch = /^\/_record\/rpc\/(\d+)\/?$/.exec(path)
    if (rpcMatch) return proxyRpc(Number(rpcMatch[1]), raw)
    const hookMatch = /^\/_record\/webhook\/(\d+)\/?$/.exec(path)
    if (hookMatch) return relayWebhook(head, Number(hookMatch[1]), raw)
    if (path === '/_record/status' && head.method === 'GET') return json(200, summarize(recording()))
    if (path === '/_record/stop' && head.method === 'POST') {
      if (stopRequested) return json(409, { error: 'the recording is already stopping' })
      stopRequested = true
      const answer = parameters.onStopRequest ? await parameters.onStopRequest(recording()) : {}
      return json(200, { ...summarize(recording()), ...(answer as object) })
    }
    return json(404, { error: `no recorder path ${path}` })
  }

  async function proxyRpc(chainId: number, raw: Buffer): Promise<LocalAnswer> {
    const chain = chains.find((c) => c.chainId === chainId)
    if (!chain)
      return {
        status: 404,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: `the recorder knows no chain ${chainId}` }),
      }
    let calls: { id?: unknown; method?: string; params?: unknown[] }[] = []
    try {
      const parsed = JSON.parse(raw.toString('utf8')) as unknown
      calls = (Array.isArray(parsed) ? parsed : [parsed]) as typeof calls
    } catch {}
    const sending = calls
      .filter((c) => c.method === 'eth_sendRawTransaction' || c.method === 'eth_sendTransaction')
      .map((call) => ({
        call,
        event: {
          kind: 'chain',
          seq: ++seq,
          at: at(),
          chainId,
          method: call.method,
          params: call.params?.[0],
        } as RecordedTransaction,
      }))
    const upstream = await forward(chain.rpcUrl, 'POST', { 'content-type': 'application/json' }, raw)
    if (sending.length > 0) {
      let answers: { id?: unknown; result?: unknown; error?: { message?: string } }[] = []
      try {
        const parsed = JSON.parse(upstream.body.toString('utf8')) as unknown
        answers = (Array.isArray(parsed) ? parsed : [parsed]) as typeof answers
      } catch {}
      for (const { call, event } of sending) {
        const answer =
          answers.find((a) => a.id === call.id) ?? (answers.length === 1 ? answers[0] : undefined)
        if (typeof answer?.result === 'string') event.hash = answer.result as Hex
        else event.error = answer?.error?.message ?? 'no answer'
        journal?.transaction(event)
      }
    }
    return { status: upstream.status, headers: { 'content-type': 'application/json' }, body: upstream.body }
  }

  async function relayWebhook(head: RequestHead, index: number, raw: Buffer): Promise<LocalAnswer> {
    const header = head.headers['x-webhook-signature']
    const secrets = [...webhookSecrets]
    const checks = secrets.map((secret) => verifyWebhookSignature(raw, header, secret))
    const signature =
      header === undefined ? 'absent' : checks.includes('valid') ? 'valid' : ('invalid' as const)
    const event: Omit<RecordedWebhook, 'body'> = {
      kind: 'webhook',
      seq: ++seq,
      at: at(),
      headers: recordedHeaders(head.headers),
      signature,
    }
    const clientUrl = webhookTargets[index]
    if (!clientUrl) {
      journal?.webhook(event, raw)
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }
    }
    try {
      const answer = await forward(clientUrl, head.method, forwardHeaders(head.headers), raw)
      event.forwardedStatus = answer.status
      return { status: answer.status, headers: passHeaders(answer.headers), body: answer.body }
    } catch {
      return {
        status: 502,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: `the client's webhook receiver ${clientUrl} did not answer` }),
      }
    } finally {
      journal?.webhook(event, raw)
    }
  }

  /** Replaces every `webhookUrl` of a JSON body by the stand-in receiver's; remembers secrets. */
  function replaceWebhookUrls(text: string): string | undefined {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return undefined
    }
    let changed = false
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk)
      else if (typeof v === 'object' && v !== null) {
        const o = v as Record<string, unknown>
        for (const [key, x] of Object.entries(o)) {
          if (key === 'webhookUrl' && typeof x === 'string' && !x.startsWith(`${base}/_record/webhook/`)) {
            webhookTargets.push(x)
            o[key] = `${base}/_record/webhook/${webhookTargets.length - 1}`
            changed = true
          } else if (key === 'webhookSecret' && typeof x === 'string' && x.length > 0) {
            if (!webhookSecrets.has(x)) journal?.secret(x)
            webhookSecrets.add(x)
          } else walk(x)
        }
      }
    }
    walk(value)
    // Unchanged bodies go on byte for byte (the target may care about number formatting).
    return changed ? JSON.stringify(value) : undefined
  }

  function rewriteManifest(text: string): string {
    try {
      const manifest = JSON.parse(text) as { chains?: { chainId: number; rpcUrl: string }[] }
      for (const chain of manifest.chains ?? []) chain.rpcUrl = `${base}/_record/rpc/${chain.chainId}`
      return JSON.stringify(manifest)
    } catch {
      return text
    }
  }

  /** A request the recorder makes itself (RPC calls, webhook forwarding): off the hot path. */
  function forward(url: string, method: string, headers: Record<string, string>, body: Buffer) {
    return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>(
      (resolve, reject) => {
        const send = url.startsWith('https:') ? httpsRequest : httpRequest
        const request = send(
          url,
          {
            method,
            agent: url.startsWith('https:') === (targetUrl.protocol === 'https:') ? agent : undefined,
            headers: body.length > 0 ? { ...headers, 'content-length': String(body.length) } : headers,
            timeout: 120_000,
          },
          (response) => {
            const chunks: Buffer[] = []
            response.on('data', (chunk: Buffer) => chunks.push(chunk))
            response.on('error', reject)
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 502,
                headers: flatHeaders(response.headers),
                body: Buffer.concat(chunks),
              }),
            )
          },
        )
        request.on('timeout', () => request.destroy(new Error('no answer within 120 s')))
        request.on('error', reject)
        request.end(body.length > 0 ? body : undefined)
      },
    )
  }

  const host = parameters.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new RecorderError(
          `The recorder cannot listen on ${host}:${parameters.port ?? DEFAULT_RECORD_PORT}.`,
          { cause: error },
        ),
      ),
    )
    server.listen(parameters.port ?? DEFAULT_RECORD_PORT, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  let journalPath = parameters.journal
  if (!journalPath) {
    journalDir = await mkdtemp(join(tmpdir(), 'intent-devnet-record-'))
    journalPath = join(journalDir, 'recording.journal')
  }
  journal = openJournal(
    journalPath,
    {
      target,
      startedAt: startedAtIso,
      manifest: probe.manifestRaw,
      manifestAccountKeys,
      chainsFile: parameters.chainsFile,
      chainState,
      chainStateProblem,
      webhookUrls: [`${base}/_record/webhook/`],
      faultsAtStart: probe.faults,
    },
    parameters.apiKey,
  )
  let stopping: Promise<Recording> | undefined
  return {
    url: base,
    rpcUrls: Object.fromEntries(chains.map((c) => [c.chainId, `${base}/_record/rpc/${c.chainId}`])),
    recording,
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        // Idle connections end now; one with an exchange in flight ends once it is answered, so
        // every request the proxy accepted is in the journal.
        for (const relay of relays) relay.close()
        await closed
        await Promise.all([...relays].map((relay) => relay.closed))
        agent.destroy()
        const result = recording()
        journal?.close()
        return result
      })()
      return stopping
    },
  }
}

/** A short account of a recording: what `record` prints and `POST /_record/stop` answers. */
export function summarize(recording: Recording): {
  exchanges: number
  transactions: number
  webhooks: number
  chainState: string
} {
  return {
    exchanges: recording.counts.http,
    transactions: recording.counts.chain,
    webhooks: recording.counts.webhook,
    chainState: recording.chainState
      ? `captured: chains ${recording.chainState.chains.map((c) => c.chainId).join(', ')}, clock offset ${recording.chainState.offsetSeconds}s`
      : `not captured: ${recording.chainStateProblem ?? 'unknown reason'}`,
  }
}

/** Reads a `--chains` file (chain RPC URLs and funded keys), failing early on a key that is not one. */
export async function readChainsFile(path: string): Promise<ChainsFile> {
  const text = await readFile(path, 'utf8')
  const parsed = ChainsFile.safeParse(parseYaml(text))
  if (!parsed.success)
    throw new RecorderError(`The --chains file ${path} is not valid: ${parsed.error.issues[0]?.message}.`)
  // Fail early on a key that is not one.
  for (const key of parsed.data.accounts) privateKeyToAccount(key as Hex)
  return parsed.data
}

function flatHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers))
    if (value !== undefined) flat[key] = Array.isArray(value) ? value.join(', ') : value
  return flat
}

function forwardHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers)) if (!HOP_HEADERS.has(key)) out[key] = value
  return out
}

function passHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers)) if (!HOP_HEADERS.has(key)) out[key] = value
  return out
}

function recordedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key in headers)
    if (!UNRECORDED_REQUEST_HEADERS.has(key) && !key.startsWith('sec-')) out[key] = headers[key]!
  return out
}

function recordedResponseHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key of ['content-type', 'x-trace-id', 'retry-after', 'location'])
    if (headers[key] !== undefined) out[key] = headers[key]
  return out
}

function apiKeyMode(header: string | undefined, apiKey: string): RecordedExchange['apiKey'] {
  if (header === undefined) return 'omit'
  return header === apiKey ? 'default' : 'wrong'
}
