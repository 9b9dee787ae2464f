import type { FastifyInstance } from 'fastify'
import type { BlancRouteResponse, BlancSubmitRequest, INTENT_ROUTES } from '../../../spec'
import { ApiError } from '../errorCodes'
import type { RouteHandlers } from '../registerRoutes'
import { trustResponse } from '../trustedResponse'
import { toAlpsStatus, toBlancStatus } from '../versions/intentStatus'
import { quoteSignaturesOf, toAlpsSubmission, toBlancSubmission } from '../versions/submission'
import { toAlpsRoute } from '../versions/toAlpsRoute'
import { toBlancRouteResponse } from '../versions/toBlancRoute'

/**
 * Handlers of the intent routes (spec/routes/intents.ts): quoting (`POST /intents/route`, both
 * versions; blanc alias `POST /quotes`), submission (alps `POST /intent-operations`; blanc
 * `POST /intents/{intentId}/submit` and the alias `POST /intents`), status (alps
 * `GET /intent-operation/{id}`, blanc `GET /intents/{id}`), the portfolio and withdrawals.
 *
 * @example
 * registerRoutes(app, INTENT_ROUTES, intentHandlers(app))
 */
export function intentHandlers(app: FastifyInstance): RouteHandlers<typeof INTENT_ROUTES> {
  const { quoting, intents, withdrawals } = app.services
  const blanc = (kept: Awaited<ReturnType<typeof quoting.quoteEvery>>) =>
    toBlancRouteResponse(kept) as BlancRouteResponse
  // A blanc submit (both paths): a dry run, or the quote taken and its intent accepted.
  const submitQuote = async (intentId: string, { signatures, options }: BlancSubmitRequest) => {
    const signed = quoteSignaturesOf(signatures)
    return trustResponse(
      toBlancSubmission(
        intentId,
        options?.dryRun
          ? { dryRun: await intents.simulateQuoted(intentId, signed) }
          : await intents.submitQuoted(intentId, signed),
      ),
    )
  }
  return {
    // Answers marked trustResponse are built to their schemas and sent as built: every one the
    // tests make is checked byte for byte (trustedResponse.ts; quoting.test.ts for quotes).
    quote: async (request) =>
      trustResponse(
        request.apiVersion === '2026-04.blanc'
          ? blanc(await quoting.quoteEvery(request.body))
          : toAlpsRoute(await quoting.quoteBest(request.body)),
      ),
    quotePublic: async (request) => trustResponse(blanc(await quoting.quoteEvery(request.body))),
    submitOperation: async (request, reply) => {
      const { signedIntentOp } = request.body
      const outcome = signedIntentOp.options?.dryRun
        ? { dryRun: await intents.simulateOperation(signedIntentOp) }
        : await intents.submitOperation(signedIntentOp)
      return reply.code(201).send(trustResponse(toAlpsSubmission(outcome)))
    },
    submitQuoted: async (request, reply) =>
      reply.code(201).send(await submitQuote(request.params.intentId, request.body)),
    submitPublic: async (request, reply) => {
      const { intentId, ...submit } = request.body
      return reply.code(201).send(await submitQuote(intentId, submit))
    },
    operationStatus: async (request) => {
      const record = await intents.getIntent(request.params.id)
      if (!record) throw new ApiError('NOT_FOUND', `No intent operation ${request.params.id}.`)
      return trustResponse(toAlpsStatus(record))
    },
    intentStatus: async (request) => {
      const record = await intents.findIntent(request.params.id)
      if (!record) throw new ApiError('NOT_FOUND', `No intent ${request.params.id}.`)
      return trustResponse(toBlancStatus(record))
    },
    portfolio: async (request) => {
      const { chainIds, tokens } = request.query
      return trustResponse(
        await quoting.portfolio(request.params.address, {
          chainIds: chainIds?.split(',').map(Number),
          tokens: tokens?.split(',').map((pair) => {
            const [chainId, token] = pair.split(':') as [string, string]
            return { chainId: Number(chainId), token }
          }),
        }),
      )
    },
    withdraw: async (request) => trustResponse(await withdrawals.withdraw(request.body)),
    batchWithdraw: async (request) => trustResponse(await withdrawals.batchWithdraw(request.body)),
  }
}
