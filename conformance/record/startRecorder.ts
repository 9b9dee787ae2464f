import { readFile } from 'node:fs/promises'
import {
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { parse as parseYaml } from 'yaml'
import { BaseError } from '../../simulator/util/BaseError'
import { ChainsFile } from '../runner/detectCapabilities'
import { verifyWebhookSignature } from '../runner/webhookReceiver'
import { DevnetManifest } from '../spec'
import type {
  RecordedChainState,
  RecordedEvent,
  RecordedExchange,
  RecordedTransaction,
  RecordedWebhook,
  Recording,
} from './recording'

/** Thrown when the recorder cannot start (target unreachable, port taken, bad `--chains` file). */
export class RecorderError extends BaseError {
  override name = 'Record.RecorderError'
}

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
  /** Called once when a client asks `POST /_record/stop`; its answer is sent back as JSON. */
  onStopRequest?: ((recording: Recording) => Promise<unknown>) | undefined
}

/** A running recorder. */
export type Recorder = {
  /** The proxy's base URL: point the client here instead of at the target. */
  url: string
  /** Per chain, the RPC proxy URL (the client's chain calls go here; transactions are recorded). */
  rpcUrls: Record<number, string>
  /** What was recorded so far. */
  recording(): Recording
  /** Stops listening (idempotent) and returns the recording. */
  stop(): Promise<Recording>
}

/** The default port of `intent-devnet record`. */
export const DEFAULT_RECORD_PORT = 4001

/** Headers a proxy does not pass on (hop by hop, or recomputed). */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'te',
  'trailer',
])
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
  const at = () => Math.round(performance.now() - started)
  const events: RecordedEvent[] = []
  let seq = 0
  const targetUrl = new URL(target)
  const agent =
    targetUrl.protocol === 'https:'
      ? new HttpsAgent({ keepAlive: true, maxSockets: 256 })
      : new HttpAgent({ keepAlive: true, maxSockets: 256 })

  const probe = await probeTarget(target, parameters.apiKey)
  const chainsFile = parameters.chainsFile ? await readChainsFile(parameters.chainsFile) : undefined
  const chains: { chainId: number; rpcUrl: string }[] =
    chainsFile?.chains ?? probe.manifest?.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })) ?? []
  const accountKeys = [
    ...((chainsFile?.accounts ?? []) as Hex[]),
    ...((probe.manifest?.accounts ?? []).map((a) => a.privateKey) as Hex[]),
  ]
  let chainState: RecordedChainState | undefined
  let chainStateProblem: string | undefined
  if (probe.manifest) {
    try {
      chainState = {
        offsetSeconds: probe.manifest.clock.offsetSeconds,
        chains: await Promise.all(
          probe.manifest.chains.map(async (c) => ({
            chainId: c.chainId,
            state: (await rpc(c.rpcUrl, 'anvil_dumpState', [])) as Hex,
          })),
        ),
      }
    } catch (error) {
      chainStateProblem = `the chains' state could not be dumped (${error instanceof Error ? error.message : String(error)})`
    }
  } else chainStateProblem = probe.problem

  const webhookTargets: (string | undefined)[] = []
  const webhookSecrets = new Set<string>()
  let base = ''
  // Bodies are kept as the bytes that crossed the proxy and decoded only when the recording is
  // read: decoding every quote's answer on the hot path cost the proxy most of its overhead.
  const undecoded = new Map<RecordedExchange, { request?: Buffer; response?: Buffer }>()
  const decodeBodies = () => {
    for (const [exchange, bytes] of undecoded) {
      if (bytes.request) exchange.body = bytes.request.toString('utf8')
      if (bytes.response && exchange.response) exchange.response.body = bytes.response.toString('utf8')
    }
    undecoded.clear()
  }
  const decodedEvents = () => {
    decodeBodies()
    return [...events].sort((a, b) => a.seq - b.seq)
  }
  const recording = (): Recording => ({
    target,
    startedAt: startedAtIso,
    apiKey: parameters.apiKey,
    events: decodedEvents(),
    manifest: probe.manifestRaw,
    accountKeys: [...new Set(accountKeys)],
    chainState,
    chainStateProblem,
    webhookUrls: [`${base}/_record/webhook/`],
    webhookSecrets: [...webhookSecrets],
    faultsAtStart: probe.faults,
  })
  const startedAtIso = new Date().toISOString()
  let stopRequested = false

  const server = createServer((req, res) => {
    const path = req.url ?? '/'
    readBody(req)
      .then(async (body) => {
        if (path.startsWith('/_record/')) return handleRecorderPath(req, res, path, body)
        return proxyHttp(req, res, path, body)
      })
      .catch((error: unknown) => {
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ error: 'recorder', message: String(error) }))
        } else res.destroy()
      })
  })
  server.keepAliveTimeout = 30_000

  async function proxyHttp(req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer) {
    const mySeq = ++seq
    const begin = performance.now()
    const exchange: RecordedExchange = {
      kind: 'http',
      seq: mySeq,
      at: at(),
      durationMs: 0,
      method: req.method ?? 'GET',
      path,
      headers: recordedHeaders(req.headers),
      apiKey: apiKeyMode(req.headers['x-api-key'], parameters.apiKey),
      body: undefined,
    }
    if (raw.length > 0) undecoded.set(exchange, { request: raw })
    let body = raw
    // Only a body that mentions a webhook can need rewriting: the others are not parsed here.
    if (raw.includes('webhook') && /json/.test(String(req.headers['content-type'] ?? 'application/json'))) {
      const rewritten = replaceWebhookUrls(raw.toString('utf8'))
      if (rewritten !== undefined) {
        body = Buffer.from(rewritten)
        undecoded.set(exchange, { request: body })
      }
    }
    try {
      const upstream = await forward(target + path, req.method ?? 'GET', forwardHeaders(req.headers), body)
      let answer = upstream.body
      if (
        path.split('?')[0] === '/_devnet/manifest' &&
        upstream.status === 200 &&
        /json/.test(upstream.headers['content-type'] ?? '')
      )
        answer = Buffer.from(rewriteManifest(answer.toString('utf8')))
      exchange.response = {
        status: upstream.status,
        headers: recordedResponseHeaders(upstream.headers),
        body: '',
      }
      undecoded.set(exchange, { ...undecoded.get(exchange), response: answer })
      const headers = passHeaders(upstream.headers)
      headers['content-length'] = String(answer.length)
      res.writeHead(upstream.status, headers)
      res.end(answer)
    } catch (error) {
      exchange.error = error instanceof Error ? error.message : String(error)
      res.writeHead(502, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({ error: 'bad gateway', message: `the target did not answer: ${exchange.error}` }),
      )
    } finally {
      exchange.durationMs = Math.round(performance.now() - begin)
      events.push(exchange)
    }
  }

  async function handleRecorderPath(req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer) {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(value))
    }
    const rpcMatch = /^\/_record\/rpc\/(\d+)\/?$/.exec(path)
    if (rpcMatch) return proxyRpc(res, Number(rpcMatch[1]), raw)
    const hookMatch = /^\/_record\/webhook\/(\d+)\/?$/.exec(path)
    if (hookMatch) return relayWebhook(req, res, Number(hookMatch[1]), raw)
    if (path === '/_record/status' && req.method === 'GET') return json(200, summarize(recording()))
    if (path === '/_record/stop' && req.method === 'POST') {
      if (stopRequested) return json(409, { error: 'the recording is already stopping' })
      stopRequested = true
      const answer = parameters.onStopRequest ? await parameters.onStopRequest(recording()) : {}
      return json(200, { ...summarize(recording()), ...(answer as object) })
    }
    return json(404, { error: `no recorder path ${path}` })
  }

  async function proxyRpc(res: ServerResponse, chainId: number, raw: Buffer) {
    const chain = chains.find((c) => c.chainId === chainId)
    if (!chain) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: `the recorder knows no chain ${chainId}` }))
      return
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
        events.push(event)
      }
    }
    res.writeHead(upstream.status, { 'content-type': 'application/json' })
    res.end(upstream.body)
  }

  async function relayWebhook(req: IncomingMessage, res: ServerResponse, index: number, raw: Buffer) {
    const header = req.headers['x-webhook-signature']
    const secrets = [...webhookSecrets]
    const checks = secrets.map((secret) => verifyWebhookSignature(raw, header, secret))
    const signature =
      header === undefined ? 'absent' : checks.includes('valid') ? 'valid' : ('invalid' as const)
    const event: RecordedWebhook = {
      kind: 'webhook',
      seq: ++seq,
      at: at(),
      headers: recordedHeaders(req.headers),
      body: raw.toString('utf8'),
      signature,
    }
    events.push(event)
    const clientUrl = webhookTargets[index]
    if (!clientUrl) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{}')
      return
    }
    try {
      const answer = await forward(clientUrl, req.method ?? 'POST', forwardHeaders(req.headers), raw)
      event.forwardedStatus = answer.status
      res.writeHead(answer.status, passHeaders(answer.headers))
      res.end(answer.body)
    } catch {
      res.writeHead(502, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: `the client's webhook receiver ${clientUrl} did not answer` }))
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
          } else if (key === 'webhookSecret' && typeof x === 'string' && x.length > 0) webhookSecrets.add(x)
          else walk(x)
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

  function forward(url: string, method: string, headers: Record<string, string>, body: Buffer) {
    return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>(
      (resolve, reject) => {
        const send = url.startsWith('https:') ? httpsRequest : httpRequest
        const request = send(
          url,
          {
            method,
            agent: url.startsWith(target) ? agent : undefined,
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
  let stopping: Promise<Recording> | undefined
  return {
    url: base,
    rpcUrls: Object.fromEntries(chains.map((c) => [c.chainId, `${base}/_record/rpc/${c.chainId}`])),
    recording,
    stop() {
      stopping ??= (async () => {
        server.closeIdleConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
        agent.destroy()
        return recording()
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
  const count = (kind: RecordedEvent['kind']) => recording.events.filter((e) => e.kind === kind).length
  return {
    exchanges: count('http'),
    transactions: count('chain'),
    webhooks: count('webhook'),
    chainState: recording.chainState
      ? `captured: chains ${recording.chainState.chains.map((c) => c.chainId).join(', ')}, clock offset ${recording.chainState.offsetSeconds}s`
      : `not captured: ${recording.chainStateProblem ?? 'unknown reason'}`,
  }
}

type Probe = {
  manifest?: DevnetManifest | undefined
  manifestRaw?: unknown
  problem: string
  faults: string[]
}

/** Asks the target for its manifest (an intent-devnet has one) and the faults now enabled. */
async function probeTarget(target: string, apiKey: string): Promise<Probe> {
  let response: Response
  try {
    response = await fetch(`${target}/_devnet/manifest`, {
      headers: { 'x-api-key': apiKey },
      signal: AbortSignal.timeout(10_000),
    })
  } catch (error) {
    throw new RecorderError(`The target ${target} does not answer.`, { cause: error as Error })
  }
  const text = await response.text()
  if (response.status !== 200)
    return {
      problem: `the target has no control API (GET /_devnet/manifest answered ${response.status}), so chain state and the clock could not be captured`,
      faults: [],
    }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    raw = undefined
  }
  const parsed = DevnetManifest.safeParse(raw)
  if (!parsed.success)
    return {
      problem:
        'the target answered GET /_devnet/manifest with something that is not a devnet manifest, so chain state and the clock could not be captured',
      faults: [],
    }
  let faults: string[] = []
  try {
    const answer = await fetch(`${target}/_devnet/faults`, { headers: { 'x-api-key': apiKey } })
    const body = (await answer.json()) as { enabled?: string[] }
    faults = Array.isArray(body.enabled) ? body.enabled : []
  } catch {}
  return { manifest: parsed.data, manifestRaw: raw, problem: '', faults }
}

async function readChainsFile(path: string): Promise<ChainsFile> {
  const text = await readFile(path, 'utf8')
  const parsed = ChainsFile.safeParse(parseYaml(text))
  if (!parsed.success)
    throw new RecorderError(`The --chains file ${path} is not valid: ${parsed.error.issues[0]?.message}.`)
  // Fail early on a key that is not one.
  for (const key of parsed.data.accounts) privateKeyToAccount(key as Hex)
  return parsed.data
}

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(60_000),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message?: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function flatHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers))
    if (value !== undefined) flat[key] = Array.isArray(value) ? value.join(', ') : value
  return flat
}

function forwardHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(flatHeaders(headers))) if (!HOP_HEADERS.has(key)) out[key] = value
  return out
}

function passHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers)) if (!HOP_HEADERS.has(key)) out[key] = value
  return out
}

function recordedHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(flatHeaders(headers)))
    if (!UNRECORDED_REQUEST_HEADERS.has(key) && !key.startsWith('sec-')) out[key] = value
  return out
}

function recordedResponseHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key of ['content-type', 'x-trace-id', 'retry-after', 'location'])
    if (headers[key] !== undefined) out[key] = headers[key]
  return out
}

function apiKeyMode(header: string | string[] | undefined, apiKey: string): RecordedExchange['apiKey'] {
  if (header === undefined) return 'omit'
  return (Array.isArray(header) ? header[0] : header) === apiKey ? 'default' : 'wrong'
}
