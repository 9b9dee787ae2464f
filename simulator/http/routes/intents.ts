import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  AlpsRouteResponse,
  BlancIntentStatus,
  BlancPublicSubmitRequest,
  BlancRouteResponse,
  BlancSubmitRequest,
  BlancSubmitResponse,
  IntentStatus,
  RouteRequest,
  SubmissionResult,
  SubmitIntentOperationRequest,
} from '../../../spec'
import { ApiError } from '../errorCodes'
import { trustResponse } from '../trustedResponse'
import { ALPS_ONLY, BLANC_ONLY } from './versions'

const IntentIdParams = z.object({ intentId: z.string().min(1) })
const OperationIdParams = z.object({
  id: z.string().regex(/^\d+$/, 'must be an intent operation id (digits only)'),
})
const BlancIdParams = z.object({ id: z.string().min(1) })

/**
 * Intents: quoting (`POST /intents/route`, both versions; blanc alias `POST /quotes`),
 * submission (alps `POST /intent-operations`; blanc `POST /intents/{intentId}/submit` and the
 * alias `POST /intents`) and status (alps `GET /intent-operation/{id}`, blanc `GET /intents/{id}`).
 */
export const intentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/intents/route', {
    schema: {
      tags: ['intents'],
      summary: 'Quote an intent (alps: intentOp + intentCost; blanc: routes[])',
      body: RouteRequest,
      response: { 200: z.union([AlpsRouteResponse, BlancRouteResponse]) },
    },
    handler: async (request) => {
      const { quoting } = app.services
      // Quotes are built to their schema (quoting.test.ts checks real ones); see trustResponse.
      return trustResponse(
        request.apiVersion === '2026-04.blanc'
          ? await quoting.routeBlanc(request.body)
          : await quoting.routeAlps(request.body),
      )
    },
  })

  app.post('/quotes', {
    config: { versions: BLANC_ONLY },
    schema: {
      tags: ['intents'],
      summary: 'Quote an intent (public blanc alias of POST /intents/route)',
      body: RouteRequest,
      response: { 200: BlancRouteResponse },
    },
    handler: async (request) => trustResponse(await app.services.quoting.routeBlanc(request.body)),
  })

  app.post('/intent-operations', {
    config: { versions: ALPS_ONLY },
    schema: {
      tags: ['intents'],
      summary: 'Submit a signed intent operation (alps)',
      body: SubmitIntentOperationRequest,
      response: { 201: SubmissionResult },
    },
    handler: async (request, reply) => {
      const { intents } = app.services
      return reply.code(201).send(await intents.submitOperation(request.body))
    },
  })

  app.post('/intents/:intentId/submit', {
    config: { versions: BLANC_ONLY },
    schema: {
      tags: ['intents'],
      summary: 'Submit the signatures of a quoted route (blanc)',
      params: IntentIdParams,
      body: BlancSubmitRequest,
      response: { 201: BlancSubmitResponse },
    },
    handler: async (request, reply) => {
      const { intents } = app.services
      return reply.code(201).send(await intents.submitQuoted(request.params.intentId, request.body))
    },
  })

  app.post('/intents', {
    config: { versions: BLANC_ONLY },
    schema: {
      tags: ['intents'],
      summary: 'Submit the signatures of a quoted route (public blanc alias; the intent id in the body)',
      body: BlancPublicSubmitRequest,
      response: { 201: BlancSubmitResponse },
    },
    handler: async (request, reply) => {
      const { intents } = app.services
      const { intentId, ...submit } = request.body
      return reply.code(201).send(await intents.submitQuoted(intentId, submit))
    },
  })

  app.get('/intent-operation/:id', {
    config: { versions: ALPS_ONLY },
    schema: {
      tags: ['intents'],
      summary: 'Status of a submitted intent operation (alps)',
      params: OperationIdParams,
      response: { 200: IntentStatus },
    },
    handler: async (request) => {
      const { intents } = app.services
      const status = await intents.operationStatus(request.params.id)
      if (!status) throw new ApiError('NOT_FOUND', `No intent operation ${request.params.id}.`)
      return status
    },
  })

  app.get('/intents/:id', {
    config: { versions: BLANC_ONLY },
    schema: {
      tags: ['intents'],
      summary: 'Status of an intent (public blanc)',
      params: BlancIdParams,
      response: { 200: BlancIntentStatus },
    },
    handler: async (request) => {
      const { intents } = app.services
      const status = await intents.intentStatus(request.params.id)
      if (!status) throw new ApiError('NOT_FOUND', `No intent ${request.params.id}.`)
      return status
    },
  })
}
