import { randomUUID } from 'node:crypto'
import fp from 'fastify-plugin'

/** The response header naming the request's trace id (facts/public-reference.md §1). */
export const TRACE_ID_HEADER = 'x-trace-id'

/** Generates a trace id; `buildApp` gives it to Fastify as `genReqId`, so `request.id` is the trace id. */
export const generateTraceId = (): string => randomUUID()

/**
 * Trace ids: every response carries `x-trace-id` (the request's id, also in error bodies).
 * Set in onSend, which every reply passes through, errors and 404s included.
 */
export const traceId = fp(
  async (app) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      reply.header(TRACE_ID_HEADER, request.id)
      done(null, payload)
    })
  },
  { name: 'traceId' },
)
