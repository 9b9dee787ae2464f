import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  BatchWithdrawalRequest,
  BatchWithdrawalResponse,
  WithdrawalRequest,
  WithdrawalResponse,
} from '../../../conformance/spec'
import { requireService } from './requireService'

/** Withdrawals: allocator signatures for single (`POST /withdrawals`) and batch (`POST /batch-withdrawals`) transfers. */
export const withdrawalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/withdrawals', {
    schema: {
      tags: ['withdrawals'],
      summary: 'Allocator signature for a withdrawal from the Compact',
      body: WithdrawalRequest,
      response: { 200: WithdrawalResponse },
    },
    handler: (request) =>
      requireService(app.services.withdrawals, 'withdrawals', request).withdraw(request.body),
  })

  app.post('/batch-withdrawals', {
    schema: {
      tags: ['withdrawals'],
      summary: 'Allocator signature for a batch withdrawal from the Compact',
      body: BatchWithdrawalRequest,
      response: { 200: BatchWithdrawalResponse },
    },
    handler: (request) =>
      requireService(app.services.withdrawals, 'withdrawals', request).batchWithdraw(request.body),
  })
}
