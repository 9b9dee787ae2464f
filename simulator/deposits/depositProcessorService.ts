import type { DepositProcessor } from './createDepositProcessor'
import type { DepositProcessorService } from './types'

/**
 * The {@link DepositProcessorService} the routes call, for one tenant: the request's API key.
 * Configuration, deposits and events of one key are invisible to every other key.
 *
 * @example
 * const service = createDepositProcessorService(processor, 'devnet-key')
 * await service.setup({ webhookUrl: null })
 */
export function createDepositProcessorService(
  processor: DepositProcessor,
  tenant: string,
): DepositProcessorService {
  return {
    setup: (params) => processor.setup(tenant, params),
    getSetup: () => processor.getSetup(tenant),
    register: (request) => processor.register(tenant, request),
    listDeposits: (query) => processor.listDeposits(tenant, query),
    getDeposit: (id) => processor.getDeposit(tenant, id),
    listWebhookEvents: (query) => processor.listWebhookEvents(tenant, query),
    resendWebhookEvent: (id) => processor.resendWebhookEvent(tenant, id),
    resendFailedWebhookEvents: (limit) => processor.resendFailedWebhookEvents(tenant, limit),
    sendTestEvent: () => processor.sendTestEvent(tenant),
  }
}
