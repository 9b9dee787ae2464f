import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { toEnvelope } from './envelope'
import { ApiError, type ErrorCode } from './errorCodes'
import { generateTraceId, TRACE_ID_HEADER } from './plugins/traceId'
import { resolveVersion, VERSION_HEADER } from './plugins/versioning'

/** How long a closing connection keeps reading what the client still sends, so it reads our answer. */
export const LINGER_MS = 2_000

/**
 * Ends a socket the HTTP way: half-close after the answer, keep reading (and discarding) what the
 * client still sends, and destroy only after {@link LINGER_MS}. Closing at once while the client
 * writes makes its kernel see a reset (EPIPE/ECONNRESET) before it reads the answer.
 */
export function lingerAndClose(socket: Socket): void {
  if (socket.destroyed) return
  socket.end()
  socket.resume()
  socket.on('error', () => {})
  setTimeout(() => socket.destroy(), LINGER_MS).unref()
}

/** The raw HTTP/1.1 response of an error in the envelope (no request reached Fastify). */
function rawErrorResponse(code: ErrorCode, message: string, version = resolveVersion(undefined).version) {
  const error = new ApiError(code, message)
  const traceId = generateTraceId()
  const body = JSON.stringify(toEnvelope(version, error, traceId))
  const reason = STATUS_CODES[error.statusCode] ?? 'Error'
  return (
    `HTTP/1.1 ${error.statusCode} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${TRACE_ID_HEADER}: ${traceId}\r\nConnection: close\r\n\r\n${body}`
  )
}

/** The code and sentence of a connection-level error (Node's `clientError`). */
function describeClientError(error: NodeJS.ErrnoException): [ErrorCode, string] {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return ['REQUEST_TIMEOUT', 'The request was not received in time (headers and body); send it faster.']
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return ['HEADERS_TOO_LARGE', 'The request headers are larger than the service accepts (16 KiB).']
  return ['VALIDATION_ERROR', `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}).`]
}

/**
 * Fastify's `clientErrorHandler`: malformed HTTP, oversized headers and timeouts answer in the
 * envelope with `connection: close`, then the socket lingers so the client reads the answer.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  // A response already under way on this socket (headers sent) leaves nothing valid to write;
  // a request whose body never finished has a response object that has written nothing yet.
  const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
  if (socket.writable && !pending?.headersSent) {
    const [code, message] = describeClientError(error)
    socket.write(rawErrorResponse(code, message))
  }
  lingerAndClose(socket)
}

/** Answers an `Expect` header other than `100-continue` with 417 in the envelope. */
export function answerExpectation(request: IncomingMessage, response: ServerResponse): void {
  const version = resolveVersion(request.headers[VERSION_HEADER]).version
  const traceId = generateTraceId()
  const error = new ApiError(
    'EXPECTATION_FAILED',
    `The Expect header "${String(request.headers.expect)}" cannot be met; only 100-continue is supported.`,
  )
  const body = JSON.stringify(toEnvelope(version, error, traceId))
  response.writeHead(error.statusCode, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    [TRACE_ID_HEADER]: traceId,
    connection: 'close',
  })
  response.end(body)
  lingerAndClose(request.socket)
}

/** Wires the connection-level handlers onto the app's HTTP server. */
export function handleConnectionErrors(app: FastifyInstance): void {
  app.server.on('checkExpectation', answerExpectation)
}
