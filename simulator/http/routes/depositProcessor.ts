import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  Deposit,
  DepositList,
  DepositListQuery,
  DepositProcessorConfig,
  DepositProcessorRegisterRequest,
  DepositProcessorRegisterResponse,
  DepositProcessorSetupRequest,
  DepositProcessorSetupResponse,
  WebhookEvent,
  WebhookEventList,
  WebhookEventListQuery,
  WebhookResendFailedRequest,
  WebhookResendFailedResponse,
} from '../../../spec'
import { ApiError } from '../errorCodes'

const IdParams = z.object({ id: z.string().min(1) })

/**
 * The deposit processor: its configuration (`/deposit-processor/setup`, a partial update),
 * account registration, the deposits it saw and its webhook outbox (facts §1).
 */
export const depositProcessorRoutes: FastifyPluginAsyncZod = async (app) => {
  // The tenant is the caller's API key (already checked by the auth plugin).
  const service = (request: FastifyRequest) =>
    app.services.depositProcessor(String(request.headers['x-api-key']))

  app.post('/deposit-processor/setup', {
    schema: {
      tags: ['deposit processor'],
      summary: 'Configure the deposit processor (partial update; null or {} clears a field)',
      body: DepositProcessorSetupRequest,
      response: { 200: DepositProcessorSetupResponse },
    },
    handler: (request) => service(request).setup(request.body.params),
  })

  app.get('/deposit-processor/setup', {
    schema: {
      tags: ['deposit processor'],
      summary: 'The deposit processor configuration (secret masked)',
      response: { 200: DepositProcessorConfig },
    },
    handler: (request) => service(request).getSetup(),
  })

  app.post('/deposit-processor/register', {
    schema: {
      tags: ['deposit processor'],
      summary: 'Register an account whose deposits the processor bridges',
      body: DepositProcessorRegisterRequest,
      response: { 200: DepositProcessorRegisterResponse },
    },
    handler: (request) => service(request).register(request.body),
  })

  app.get('/deposit-processor/deposits', {
    schema: {
      tags: ['deposit processor'],
      summary: 'Deposits the processor saw, newest first',
      querystring: DepositListQuery,
      response: { 200: DepositList },
    },
    handler: (request) => service(request).listDeposits(request.query),
  })

  app.get('/deposit-processor/deposits/:id', {
    schema: {
      tags: ['deposit processor'],
      summary: 'One deposit',
      params: IdParams,
      response: { 200: Deposit },
    },
    handler: async (request) => {
      const deposit = await service(request).getDeposit(request.params.id)
      if (!deposit) throw new ApiError('NOT_FOUND', `No deposit ${request.params.id}.`)
      return deposit
    },
  })

  app.get('/deposit-processor/webhooks/events', {
    schema: {
      tags: ['deposit processor'],
      summary: 'Webhook events of the outbox, newest first',
      querystring: WebhookEventListQuery,
      response: { 200: WebhookEventList },
    },
    handler: (request) => service(request).listWebhookEvents(request.query),
  })

  app.post('/deposit-processor/webhooks/events/:id/resend', {
    schema: {
      tags: ['deposit processor'],
      summary: 'Deliver a webhook event again',
      params: IdParams,
      response: { 200: WebhookEvent },
    },
    handler: async (request) => {
      const event = await service(request).resendWebhookEvent(request.params.id)
      if (!event) throw new ApiError('NOT_FOUND', `No webhook event ${request.params.id}.`)
      return event
    },
  })

  app.post('/deposit-processor/webhooks/events/resend-failed', {
    schema: {
      tags: ['deposit processor'],
      summary: 'Deliver every failed webhook event again (a fresh retry window each)',
      body: WebhookResendFailedRequest,
      response: { 200: WebhookResendFailedResponse },
    },
    handler: async (request) => {
      // Optional on the service type only so that older stubs still type-check; the real one has it.
      const resend = service(request).resendFailedWebhookEvents
      if (!resend) throw new ApiError('NOT_FOUND', 'This deposit processor cannot resend failed events.')
      const eventIds = await resend(request.body?.limit)
      return { resent: eventIds.length, eventIds }
    },
  })

  app.post('/deposit-processor/webhooks/test', {
    schema: {
      tags: ['deposit processor'],
      summary: 'Send a test event (`test: true`) to the configured webhook',
      response: { 202: WebhookEvent },
    },
    handler: async (request, reply) => {
      reply.code(202)
      return service(request).sendTestEvent()
    },
  })
}
