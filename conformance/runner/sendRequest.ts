import {
  type ClientRequest,
  request as httpRequest,
  type IncomingHttpHeaders,
  type RequestOptions,
} from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Socket } from 'node:net'
import { urlToHttpOptions } from 'node:url'
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib'
import { canSend, loopbackExchange } from '../../lib/loopbackHttp'
import { parseJsonExact } from './parseJsonExact'

/** Bodies from this size on wait {@link EARLY_ANSWER_MS} for an early answer before being sent. */
const LARGE_BODY = 64 * 1024
/** How long a large body waits for an early answer, unless told (`earlyAnswerMs`). */
export const EARLY_ANSWER_MS = 300

/**
 * The largest answer body the runner reads: no answer of the spec comes near it, and a target
 * that streams without end would otherwise fill the runner's memory (a body that keeps coming
 * never trips the idle timeout).
 */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024

/** A response as the runner keeps it. */
export type HttpResponse = { status: number; headers: Record<string, string>; text: string; json: unknown }

/**
 * Sends one HTTP request and reads the whole response, within `timeoutMs` from the start to the
 * last byte and at most {@link MAX_RESPONSE_BYTES} of body (else it rejects, saying which).
 * Unlike `fetch`, a response that arrives while the body is still being sent (a server answering
 * 413 early and closing the connection) is kept rather than lost to the write error.
 *
 * @example
 * const response = await sendRequest({ method: 'GET', url: 'http://127.0.0.1:4000/health', headers: {}, timeoutMs: 5000 })
 */
export function sendRequest(parameters: {
  method: string
  url: string
  headers: Record<string, string>
  body?: string | undefined
  timeoutMs: number
  /**
   * How long a large body waits after the headers for an early answer (default
   * {@link EARLY_ANSWER_MS}); 0 for a target known to read every body before it answers.
   */
  earlyAnswerMs?: number | undefined
  /**
   * The target is a server the runner started on this machine (its own simulator): a request
   * node:http would send as it is goes over loopbackHttp.ts's lean client instead, the same
   * bytes and the same answer for less CPU. Any other request, or target, takes node:http.
   */
  ownServer?: boolean | undefined
}): Promise<HttpResponse> {
  const { method, url, headers, body, timeoutMs, earlyAnswerMs = EARLY_ANSWER_MS } = parameters
  if (parameters.ownServer && url.startsWith('http:')) {
    // A URL that does not parse is refused by node:http's path below, as for any target.
    const target = (() => {
      try {
        return requestTarget(url)
      } catch {
        return undefined
      }
    })()
    if (target && canSend(method, target.path!, headers, body !== undefined))
      return sendOwn({ ...parameters, target })
  }
  return new Promise((resolve, reject_) => {
    let responded = false
    // Set once node:http has taken the request: it throws at once on what it will not send (a
    // header it refuses), which rejects below and must not leave the deadline to find no request.
    let sent: ClientRequest | undefined
    // The whole exchange, not only the socket's idle time: an answer that trickles in forever
    // keeps the socket busy.
    const deadline = setTimeout(() => {
      const error = new Error(`no complete response within ${timeoutMs} ms`)
      reject(error)
      sent?.destroy(error)
    }, timeoutMs)
    const reject = (error: unknown) => {
      clearTimeout(deadline)
      reject_(error)
    }
    const bodyBytes = body === undefined ? 0 : Buffer.byteLength(body)
    // No socket idle timeout (http's `timeout`) besides the deadline: it would start later and
    // last as long, so the deadline always came first.
    let request: ClientRequest
    try {
      request = (url.startsWith('https:') ? httpsRequest : httpRequest)(
        {
          ...requestTarget(url),
          method,
          headers: body === undefined ? headers : { ...headers, 'content-length': String(bodyBytes) },
        },
        (response) => {
          responded = true
          const chunks: Buffer[] = []
          let size = 0
          response.on('data', (chunk: Buffer) => {
            size += chunk.length
            if (size <= MAX_RESPONSE_BYTES) return void chunks.push(chunk)
            chunks.length = 0
            reject(new Error(`the response body is over ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`))
            request.destroy()
          })
          response.on('error', reject)
          response.on('end', () => {
            clearTimeout(deadline)
            resolve(kept(response.statusCode ?? 0, response.headers, Buffer.concat(chunks)))
          })
        },
      )
    } catch (error) {
      reject(error)
      return
    }
    sent = request
    request.on('error', (error) => {
      if (!responded) reject(error)
    })
    if (body === undefined || bodyBytes < LARGE_BODY || earlyAnswerMs <= 0) {
      request.end(body)
      return
    }
    // A large body: send the headers first and give the server a moment to refuse it by its
    // content-length, as it may close the connection at once, and a reset would lose its answer.
    request.flushHeaders()
    setTimeout(() => {
      if (!responded) request.end(body)
    }, earlyAnswerMs)
  })
}

/** {@link sendRequest} to the runner's own server, over loopbackHttp.ts: the same deadline and limits. */
function sendOwn(parameters: {
  method: string
  target: RequestOptions
  headers: Record<string, string>
  body?: string | undefined
  timeoutMs: number
}): Promise<HttpResponse> {
  const { method, target, headers, body, timeoutMs } = parameters
  return new Promise((resolve, reject) => {
    let socket: Socket | undefined
    const deadline = setTimeout(() => {
      reject(new Error(`no complete response within ${timeoutMs} ms`))
      socket?.destroy()
    }, timeoutMs)
    loopbackExchange({
      method,
      host: target.hostname!,
      port: Number(target.port ?? 80),
      path: target.path!,
      headers,
      body,
      maxBodyBytes: MAX_RESPONSE_BYTES,
      onSocket: (used) => {
        socket = used
      },
    }).then(
      (answer) => {
        clearTimeout(deadline)
        resolve(kept(answer.status, answer.headers, answer.body))
      },
      (error: unknown) => {
        clearTimeout(deadline)
        reject(error)
      },
    )
  })
}

/** An answer as the runner keeps it: the body decoded and parsed, the headers one string each. */
function kept(status: number, headers: IncomingHttpHeaders, body: Buffer): HttpResponse {
  const text = decoded(body, headers['content-encoding'])
  let json: unknown
  try {
    // A byte-order mark before the JSON is the encoding's, not the body's.
    json = parseJsonExact(text.replace(/^\uFEFF/, ''))
  } catch {}
  const flat: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers))
    if (value !== undefined) flat[key] = Array.isArray(value) ? value.join(', ') : value
  return { status, headers: flat, text, json }
}

/** An origin as a request's options (protocol, host, port), parsed once: a run sends to one or two. */
const origins = new Map<string, RequestOptions>()

/** `http(s)://host[:port]` with nothing the URL parser would read differently (no credentials, no `\\`). */
const PLAIN_ORIGIN = /^https?:\/\/[\w.\-:[\]]+$/
/** A path and query the URL parser keeps as they are (nothing to encode, resolve or cut off). */
const PLAIN_REST = /^\/[\w\-.~/]*(?:\?[\w\-.~/=&,:]*)?$/

/**
 * node:http's options for a URL: what `http.request(url)` makes of it (node's urlToHttpOptions),
 * without parsing the URL again for each request of a run when its origin was seen and its
 * path is plain (the URLs the runner builds: buildHttpRequest.ts joinUrl); any other URL is parsed.
 */
function requestTarget(url: string): RequestOptions {
  const slash = url.indexOf('/', url.indexOf('//') + 2)
  const origin = slash === -1 ? url : url.slice(0, slash)
  const rest = slash === -1 ? '/' : url.slice(slash)
  if (!PLAIN_ORIGIN.test(origin) || !PLAIN_REST.test(rest) || /\/\.{1,2}(?:[/?]|$)/.test(rest))
    return urlToHttpOptions(new URL(url))
  let options = origins.get(origin)
  if (options === undefined) {
    const { protocol, hostname, port } = urlToHttpOptions(new URL(origin))
    options = port === undefined ? { protocol, hostname } : { protocol, hostname, port }
    origins.set(origin, options)
  }
  return { ...options, path: rest }
}

/**
 * The body as text, decompressed when the target compressed it (`content-encoding: gzip`,
 * `deflate` or `br`, which a proxy in front of a target may add although the runner asks for
 * none); a body that does not decompress is kept as it came, and judged so.
 */
function decoded(body: Buffer, encoding: string | undefined): string {
  // Most answers name no coding.
  if (encoding === undefined) return body.toString('utf8')
  const limit = { maxOutputLength: MAX_RESPONSE_BYTES }
  const codings = (encoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
  let out = body
  try {
    // Codings are listed in the order they were applied: undo them from the last.
    for (const coding of codings.reverse()) {
      if (coding === 'gzip' || coding === 'x-gzip') out = gunzipSync(out, limit)
      else if (coding === 'br') out = brotliDecompressSync(out, limit)
      else if (coding === 'deflate') {
        try {
          out = inflateSync(out, limit)
        } catch {
          out = inflateRawSync(out, limit)
        }
      } else return body.toString('utf8')
    }
  } catch {
    return body.toString('utf8')
  }
  return out.toString('utf8')
}
