import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { DEPOSIT_PROCESSOR_ROUTES } from '../../../spec'
import { ApiError } from '../errorCodes'
import type { RouteHandlers } from '../registerRoutes'

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
  // The tenant is the caller's API key (already checked by the auth plugin).
  const service = (request: FastifyRequest) =>
    app.services.depositProcessor(String(request.headers['x-api-key']))
  return {
    depositSetup: (request) => service(request).setup(request.body.params),
    depositGetSetup: (request) => service(request).getSetup(),
    depositRegister: (request) => service(request).register(request.body),
    depositList: (request) => service(request).listDeposits(request.query),
    depositGet: async (request) => {
      const deposit = await service(request).getDeposit(request.params.id)
      if (!deposit) throw new ApiError('NOT_FOUND', `No deposit ${request.params.id}.`)
      return deposit
    },
    webhookEventList: (request) => service(request).listWebhookEvents(request.query),
    webhookEventResend: async (request) => {
      const event = await service(request).resendWebhookEvent(request.params.id)
      if (!event) throw new ApiError('NOT_FOUND', `No webhook event ${request.params.id}.`)
      return event
    },
    webhookResendFailed: async (request) => {
      // Optional on the service type only so that older stubs still type-check; the real one has it.
      const resend = service(request).resendFailedWebhookEvents
      if (!resend) throw new ApiError('NOT_FOUND', 'This deposit processor cannot resend failed events.')
      const eventIds = await resend(request.body?.limit)
      return { resent: eventIds.length, eventIds }
    },
    webhookTest: async (request, reply) => {
      reply.code(202)
      return service(request).sendTestEvent()
    },
  }
}
