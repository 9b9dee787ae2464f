import type { DepositProcessorService } from '../http/domainServices'
import { ApiError } from '../http/errorCodes'
import type { DepositProcessor } from './createDepositProcessor'
import { AccountTakenError, InvalidConfigurationError } from './errors'

async function mapErrors<value>(run: () => Promise<value>): Promise<value> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof InvalidConfigurationError)
      throw new ApiError('VALIDATION_ERROR', error.shortMessage, { data: { path: error.path }, cause: error })
    if (error instanceof AccountTakenError)
      throw new ApiError('CONFLICT', error.shortMessage, { cause: error })
    throw error
  }
}

/**
 * The {@link DepositProcessorService} the routes call, for one tenant: the request's API key.
 * Configuration, deposits and events of one key are invisible to every other key.
 *
 * @example
 * // in a route: createDepositProcessorService(processor, request.headers['x-api-key'])
 * const service = createDepositProcessorService(processor, 'devnet-key')
 * await service.setup({ webhookUrl: null })
 */
export function createDepositProcessorService(
  processor: DepositProcessor,
  tenant: string,
): DepositProcessorService {
  return {
    setup: (params) => mapErrors(() => processor.setup(tenant, params)),
    getSetup: () => processor.getSetup(tenant),
    register: (request) => mapErrors(() => processor.register(tenant, request)),
    listDeposits: (query) => processor.listDeposits(tenant, query),
    getDeposit: (id) => processor.getDeposit(tenant, id),
    listWebhookEvents: (query) => processor.listWebhookEvents(tenant, query),
    resendWebhookEvent: (id) => processor.resendWebhookEvent(tenant, id),
    sendTestEvent: async () => ({ ...(await processor.sendTestEvent(tenant)) }),
  }
}
