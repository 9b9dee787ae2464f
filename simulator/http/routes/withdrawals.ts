import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  BatchWithdrawalRequest,
  BatchWithdrawalResponse,
  WithdrawalRequest,
  WithdrawalResponse,
} from '../../../spec'

/** Withdrawals: allocator signatures for single (`POST /withdrawals`) and batch (`POST /batch-withdrawals`) transfers. */
export const withdrawalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/withdrawals', {
    schema: {
      tags: ['withdrawals'],
      summary: 'Allocator signature for a withdrawal from the Compact',
      body: WithdrawalRequest,
      response: { 200: WithdrawalResponse },
    },
    handler: (request) => app.services.withdrawals.withdraw(request.body),
  })

  app.post('/batch-withdrawals', {
    schema: {
      tags: ['withdrawals'],
      summary: 'Allocator signature for a batch withdrawal from the Compact',
      body: BatchWithdrawalRequest,
      response: { 200: BatchWithdrawalResponse },
    },
    handler: (request) => app.services.withdrawals.batchWithdraw(request.body),
  })
}
