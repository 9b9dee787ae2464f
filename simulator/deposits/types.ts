import type { z } from 'zod'
import type {
  Deposit,
  DepositList,
  DepositListQuery,
  DepositProcessorConfig,
  DepositProcessorRegisterRequest,
  DepositProcessorSetupRequest,
  DepositProcessorSetupResponse,
} from '../../conformance/spec'

/** Paging of GET /deposit-processor/webhooks/events. */
export type WebhookEventsQuery = { limit?: number | undefined; cursor?: string | undefined }

/**
 * The deposit processor's configuration, deposits and webhook outbox, for one tenant (API key).
 * Setup and register throw `DepositProcessor.InvalidConfigurationError` or
 * `DepositProcessor.AccountTakenError` for what the schemas accept but the devnet cannot honour.
 */
export interface DepositProcessorService {
  setup(
    params: DepositProcessorSetupRequest['params'],
  ): Promise<z.output<typeof DepositProcessorSetupResponse>>
  getSetup(): Promise<z.output<typeof DepositProcessorConfig>>
  register(request: DepositProcessorRegisterRequest): Promise<Record<string, unknown>>
  listDeposits(query: z.output<typeof DepositListQuery>): Promise<z.output<typeof DepositList>>
  /** undefined → 404. */
  getDeposit(id: string): Promise<z.output<typeof Deposit> | undefined>
  listWebhookEvents(query: WebhookEventsQuery): Promise<Record<string, unknown>>
  /** undefined → 404. */
  resendWebhookEvent(id: string): Promise<Record<string, unknown> | undefined>
  /** Queues a test event (`test: true`) for the configured webhook (facts §1). */
  sendTestEvent(): Promise<Record<string, unknown>>
}
