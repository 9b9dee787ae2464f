import { mkdtemp, readFile } from 'node:fs/promises'
import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import { type AddressInfo, createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { parse as parseYaml } from 'yaml'
import { ChainsFile } from '../runner/detectCapabilities'
import { captureTarget, RecorderError } from './captureTarget'
import { openJournal } from './journal'
import { apiKeyMode, recordedHeaders, recordedResponseHeaders } from './recordedHeaders'
import type { RecorderState } from './recorderState'
import type { RecordedChainState, Recording } from './recording'
import {
  type LocalAnswer,
  type Relay,
  type RelayHandlers,
  type RequestHead,
  relayConnection,
} from './relayConnection'
import { proxyRpc, relayWebhook, replaceWebhookUrls, rewriteManifest } from './standIn'

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
  const targetUrl = new URL(target)

  const probe = await captureTarget(target, parameters.apiKey)
  const chainsFile = parameters.chainsFile ? await readChainsFile(parameters.chainsFile) : undefined
  const chains: { chainId: number; rpcUrl: string }[] =
    chainsFile?.chains ?? probe.manifest?.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })) ?? []
  const manifestAccountKeys = (probe.manifest?.accounts ?? []).map((a) => a.privateKey) as Hex[]
  const accountKeys = [...((chainsFile?.accounts ?? []) as Hex[]), ...manifestAccountKeys]
  const { chainState, chainStateProblem } = probe

  const r: RecorderState = {
    target,
    targetUrl,
    agent:
      targetUrl.protocol === 'https:'
        ? new HttpsAgent({ keepAlive: true, maxSockets: 16 })
        : new HttpAgent({ keepAlive: true, maxSockets: 16 }),
    chains,
    webhookTargets: [],
    webhookSecrets: new Set(),
    base: '',
    seq: 0,
    at,
  }
  const startedAtIso = new Date().toISOString()
  let stopRequested = false
  // Every event goes to the journal as it ends (bodies as the bytes that crossed the proxy, never
  // decoded on the hot path); the recorder keeps only counts.
  const recording = (): Recording => {
    r.journal?.flush()
    return {
      target,
      startedAt: startedAtIso,
      apiKey: parameters.apiKey,
      journal: r.journal?.path ?? '',
      counts: { ...(r.journal?.counts ?? { http: 0, chain: 0, webhook: 0 }) },
      manifest: probe.manifestRaw,
      accountKeys: [...new Set(accountKeys)],
      chainState,
      chainStateProblem,
      webhookUrls: [`${r.base}/_record/webhook/`],
      webhookSecrets: [...r.webhookSecrets],
      faultsAtStart: probe.faults,
    }
  }

  const handlers: RelayHandlers<{ seq: number; at: number }> = {
    target: targetUrl,
    local(head) {
      if (!head.path.startsWith('/_record/')) return undefined
      return (body) => handleRecorderPath(head, body)
    },
    begin: () => ({ seq: ++r.seq, at: at() }),
    rewriteRequest(head, raw) {
      // Only a body that mentions a webhook can need rewriting: the others are not parsed here.
      if (
        raw.length === 0 ||
        !raw.includes('webhook') ||
        !/json/.test(head.headers['content-type'] ?? 'application/json')
      )
        return undefined
      const rewritten = replaceWebhookUrls(r, raw.toString('utf8'))
      return rewritten === undefined ? undefined : Buffer.from(rewritten)
    },
    rewritesResponse: (head) => head.path.split('?')[0] === '/_devnet/manifest',
    rewriteResponse(status, headers, body) {
      if (status !== 200 || !/json/.test(headers['content-type'] ?? '')) return body
      return Buffer.from(rewriteManifest(r, body.toString('utf8')))
    },
    done(exchange, token) {
      r.journal?.exchange(
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
    if (rpcMatch) return proxyRpc(r, Number(rpcMatch[1]), raw)
    const hookMatch = /^\/_record\/webhook\/(\d+)\/?$/.exec(path)
    if (hookMatch) return relayWebhook(r, head, Number(hookMatch[1]), raw)
    if (path === '/_record/status' && head.method === 'GET') return json(200, summarize(recording()))
    if (path === '/_record/stop' && head.method === 'POST') {
      if (stopRequested) return json(409, { error: 'the recording is already stopping' })
      stopRequested = true
      const answer = parameters.onStopRequest ? await parameters.onStopRequest(recording()) : {}
      return json(200, { ...summarize(recording()), ...(answer as object) })
    }
    return json(404, { error: `no recorder path ${path}` })
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
  r.base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  let journalPath = parameters.journal
  if (!journalPath) {
    journalPath = join(await mkdtemp(join(tmpdir(), 'intent-devnet-record-')), 'recording.journal')
  }
  r.journal = openJournal(
    journalPath,
    {
      target,
      startedAt: startedAtIso,
      manifest: probe.manifestRaw,
      manifestAccountKeys,
      chainsFile: parameters.chainsFile,
      chainState,
      chainStateProblem,
      webhookUrls: [`${r.base}/_record/webhook/`],
      faultsAtStart: probe.faults,
    },
    parameters.apiKey,
  )
  let stopping: Promise<Recording> | undefined
  return {
    url: r.base,
    rpcUrls: Object.fromEntries(chains.map((c) => [c.chainId, `${r.base}/_record/rpc/${c.chainId}`])),
    recording,
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        // Idle connections end now; one with an exchange in flight ends once it is answered, so
        // every request the proxy accepted is in the journal.
        for (const relay of relays) relay.close()
        await closed
        await Promise.all([...relays].map((relay) => relay.closed))
        r.agent.destroy()
        const result = recording()
        r.journal?.close()
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
      ? `captured: chains ${recording.chainState.chains.map((c) => c.chainId).join(', ')}, ${clockOf(recording.chainState)}`
      : `not captured: ${recording.chainStateProblem ?? 'unknown reason'}`,
  }
}

/** The recorded clock as `record` prints it: the devnet's time when recording began and its offset. */
export function clockOf(chainState: RecordedChainState): string {
  const at = chainState.now === undefined ? '' : `${new Date(chainState.now * 1000).toISOString()}, `
  return `clock ${at}offset ${chainState.offsetSeconds}s`
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
