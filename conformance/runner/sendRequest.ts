import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { parseJsonExact } from './parseJsonExact'

/** Bodies from this size on wait {@link EARLY_ANSWER_MS} for an early answer before being sent. */
const LARGE_BODY = 64 * 1024
const EARLY_ANSWER_MS = 300

/** A response as the runner keeps it. */
export type HttpResponse = { status: number; headers: Record<string, string>; text: string; json: unknown }

/**
 * Sends one HTTP request and reads the whole response. Unlike `fetch`, a response that arrives
 * while the body is still being sent (a server answering 413 early and closing the connection)
 * is kept rather than lost to the write error.
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
}): Promise<HttpResponse> {
  const { method, url, headers, body, timeoutMs } = parameters
  return new Promise((resolve, reject) => {
    let responded = false
    const request = (url.startsWith('https:') ? httpsRequest : httpRequest)(
      url,
      {
        method,
        headers:
          body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: timeoutMs,
      },
      (response) => {
        responded = true
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown
          try {
            json = parseJsonExact(text)
          } catch {}
          const flat: Record<string, string> = {}
          for (const [key, value] of Object.entries(response.headers))
            if (value !== undefined) flat[key] = Array.isArray(value) ? value.join(', ') : value
          resolve({ status: response.statusCode ?? 0, headers: flat, text, json })
        })
      },
    )
    request.on('timeout', () => request.destroy(new Error(`no response within ${timeoutMs} ms`)))
    request.on('error', (error) => {
      if (!responded) reject(error)
    })
    if (body === undefined || Buffer.byteLength(body) < LARGE_BODY) {
      request.end(body)
      return
    }
    // A large body: send the headers first and give the server a moment to refuse it by its
    // content-length, as it may close the connection at once, and a reset would lose its answer.
    request.flushHeaders()
    setTimeout(() => {
      if (!responded) request.end(body)
    }, EARLY_ANSWER_MS)
  })
}
