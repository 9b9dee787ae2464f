import type { FastifyInstance } from 'fastify'
import type { DEPOSIT_PROCESSOR_ROUTES } from '../../../spec'
import { ApiError } from '../errorCodes'
import type { RouteHandlers } from '../registerRoutes'
import { trustResponse } from '../trustedResponse'

/**
 * Handlers of the deposit processor's routes (spec/routes/depositProcessor.ts): its
 * configuration (`/deposit-processor/setup`, a partial update), account registration, the
 * deposits it saw and its webhook outbox (facts §1), each for the caller's tenant.
 *
 * @example
 * registerRoutes(app, DEPOSIT_PROCESSOR_ROUTES, depositProcessorHandlers(app))
 */
export function depositProcessorHandlers(
  app: FastifyInstance,
): RouteHandlers<typeof DEPOSIT_PROCESSOR_ROUTES> {
  // The tenant is the caller's API key, as the auth plugin decorated the request with it.
  const processor = app.services.depositProcessor
  // Every answer is marked trustResponse: built to its schema and sent as built (keys in the
  // builder's order); every one the tests make is checked against the schema (trustedResponse.ts).
  return {
    depositSetup: async (request) =>
      trustResponse(await processor.setup(request.tenant, request.body.params)),
    depositGetSetup: async (request) => trustResponse(await processor.getSetup(request.tenant)),
    depositRegister: async (request) => trustResponse(await processor.register(request.tenant, request.body)),
    depositList: async (request) =>
      trustResponse(await processor.listDeposits(request.tenant, request.query)),
    depositGet: async (request) => {
      const deposit = await processor.getDeposit(request.tenant, request.params.id)
      if (!deposit) throw new ApiError('NOT_FOUND', `No deposit ${request.params.id}.`)
      return trustResponse(deposit)
    },
    webhookEventList: async (request) =>
      trustResponse(await processor.listWebhookEvents(request.tenant, request.query)),
    webhookEventResend: async (request) => {
      const event = await processor.resendWebhookEvent(request.tenant, request.params.id)
      if (!event) throw new ApiError('NOT_FOUND', `No webhook event ${request.params.id}.`)
      return trustResponse(event)
    },
    webhookResendFailed: async (request) => {
      const eventIds = await processor.resendFailedWebhookEvents(request.tenant, request.body?.limit)
      return trustResponse({ resent: eventIds.length, eventIds })
    },
    webhookTest: async (request, reply) => {
      reply.code(202)
      return trustResponse(await processor.sendTestEvent(request.tenant))
    },
  }
}
