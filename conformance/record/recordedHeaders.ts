import type { IncomingMessage } from 'node:http'
import type { RecordedExchange } from './recording'
import { HOP_HEADERS } from './relayConnection'

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

/** Node's header object with each header as one string. */
export function flatHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers))
    if (value !== undefined) flat[key] = Array.isArray(value) ? value.join(', ') : value
  return flat
}

/** Headers to pass on to the client's webhook receiver (hop-by-hop ones dropped). */
export function forwardHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers)) if (!HOP_HEADERS.has(key)) out[key] = value
  return out
}

/** The receiver's answer headers to pass back to the target (hop-by-hop ones dropped). */
export function passHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers)) if (!HOP_HEADERS.has(key)) out[key] = value
  return out
}

/** The request headers a scenario keeps. */
export function recordedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key in headers)
    if (!UNRECORDED_REQUEST_HEADERS.has(key) && !key.startsWith('sec-')) out[key] = headers[key]!
  return out
}

/** The answer headers a scenario keeps. */
export function recordedResponseHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key of ['content-type', 'x-trace-id', 'retry-after', 'location'])
    if (headers[key] !== undefined) out[key] = headers[key]
  return out
}

/** How a request carried `x-api-key`: the recording's key, none, or another. */
export function apiKeyMode(header: string | undefined, apiKey: string): RecordedExchange['apiKey'] {
  if (header === undefined) return 'omit'
  return header === apiKey ? 'default' : 'wrong'
}
