import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Hex } from 'viem'
import { verifyWebhookSignature } from '../runner/webhookReceiver'
import { flatHeaders, forwardHeaders, passHeaders, recordedHeaders } from './recordedHeaders'
import type { RecorderState } from './recorderState'
import type { RecordedTransaction, RecordedWebhook } from './recording'
import type { LocalAnswer, RequestHead } from './relayConnection'

/**
 * What the recorder does in place of the target's chains and the client's webhook receiver: the
 * per-chain RPC proxies (transactions recorded), the stand-in webhook receiver (deliveries
 * recorded, their signature checked, forwarded to the client's URL), and the rewrites that point
 * the client and the target at them (the manifest's RPC URLs, a request's `webhookUrl`).
 */

/**
 * Forwards a JSON-RPC request (or batch) to a chain; each transaction it sends is recorded with
 * the hash the chain answered (or why it refused).
 *
 * @example
 * const answer = await proxyRpc(state, 8453, body)
 */
export async function proxyRpc(r: RecorderState, chainId: number, raw: Buffer): Promise<LocalAnswer> {
  const chain = r.chains.find((c) => c.chainId === chainId)
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
        seq: ++r.seq,
        at: r.at(),
        chainId,
        method: call.method,
        params: call.params?.[0],
      } as RecordedTransaction,
    }))
  const upstream = await forward(r, chain.rpcUrl, 'POST', { 'content-type': 'application/json' }, raw)
  if (sending.length > 0) {
    let answers: { id?: unknown; result?: unknown; error?: { message?: string } }[] = []
    try {
      const parsed = JSON.parse(upstream.body.toString('utf8')) as unknown
      answers = (Array.isArray(parsed) ? parsed : [parsed]) as typeof answers
    } catch {}
    for (const { call, event } of sending) {
      const answer = answers.find((a) => a.id === call.id) ?? (answers.length === 1 ? answers[0] : undefined)
      if (typeof answer?.result === 'string') event.hash = answer.result as Hex
      else event.error = answer?.error?.message ?? 'no answer'
      r.journal?.transaction(event)
    }
  }
  return { status: upstream.status, headers: { 'content-type': 'application/json' }, body: upstream.body }
}

/**
 * Records a webhook the target delivered to the stand-in receiver and forwards it to the
 * client's URL, whose answer goes back to the target.
 *
 * @example
 * const answer = await relayWebhook(state, head, 0, body)
 */
export async function relayWebhook(
  r: RecorderState,
  head: RequestHead,
  index: number,
  raw: Buffer,
): Promise<LocalAnswer> {
  const header = head.headers['x-webhook-signature']
  const secrets = [...r.webhookSecrets]
  const checks = secrets.map((secret) => verifyWebhookSignature(raw, header, secret))
  const signature =
    header === undefined ? 'absent' : checks.includes('valid') ? 'valid' : ('invalid' as const)
  const event: Omit<RecordedWebhook, 'body'> = {
    kind: 'webhook',
    seq: ++r.seq,
    at: r.at(),
    headers: recordedHeaders(head.headers),
    signature,
  }
  const clientUrl = r.webhookTargets[index]
  if (!clientUrl) {
    r.journal?.webhook(event, raw)
    return { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }
  }
  try {
    const answer = await forward(r, clientUrl, head.method, forwardHeaders(head.headers), raw)
    event.forwardedStatus = answer.status
    return { status: answer.status, headers: passHeaders(answer.headers), body: answer.body }
  } catch {
    return {
      status: 502,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: `the client's webhook receiver ${clientUrl} did not answer` }),
    }
  } finally {
    r.journal?.webhook(event, raw)
  }
}

/**
 * Replaces every `webhookUrl` of a JSON body by the stand-in receiver's; remembers secrets.
 *
 * @example
 * const body = replaceWebhookUrls(state, text) ?? text
 */
export function replaceWebhookUrls(r: RecorderState, text: string): string | undefined {
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
        if (key === 'webhookUrl' && typeof x === 'string' && !x.startsWith(`${r.base}/_record/webhook/`)) {
          r.webhookTargets.push(x)
          o[key] = `${r.base}/_record/webhook/${r.webhookTargets.length - 1}`
          changed = true
        } else if (key === 'webhookSecret' && typeof x === 'string' && x.length > 0) {
          if (!r.webhookSecrets.has(x)) r.journal?.secret(x)
          r.webhookSecrets.add(x)
        } else walk(x)
      }
    }
  }
  walk(value)
  // Unchanged bodies go on byte for byte (the target may care about number formatting).
  return changed ? JSON.stringify(value) : undefined
}

/**
 * The manifest with each chain's RPC URL pointing at its RPC proxy.
 *
 * @example
 * const text = rewriteManifest(state, manifestText)
 */
export function rewriteManifest(r: RecorderState, text: string): string {
  try {
    const manifest = JSON.parse(text) as { chains?: { chainId: number; rpcUrl: string }[] }
    for (const chain of manifest.chains ?? []) chain.rpcUrl = `${r.base}/_record/rpc/${chain.chainId}`
    return JSON.stringify(manifest)
  } catch {
    return text
  }
}

/** A request the recorder makes itself (RPC calls, webhook forwarding): off the hot path. */
function forward(
  r: RecorderState,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer,
) {
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest
    const request = send(
      url,
      {
        method,
        agent: url.startsWith('https:') === (r.targetUrl.protocol === 'https:') ? r.agent : undefined,
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
  })
}
