import type { z } from 'zod'
import type {
  AlpsRouteResponse,
  BatchWithdrawalRequest,
  BatchWithdrawalResponse,
  BlancIntentStatus,
  BlancRouteResponse,
  BlancSubmitRequest,
  BlancSubmitResponse,
  Deposit,
  DepositList,
  DepositListQuery,
  DepositProcessorConfig,
  DepositProcessorRegisterRequest,
  DepositProcessorSetupRequest,
  DepositProcessorSetupResponse,
  IntentStatus,
  RouteRequest,
  SubmissionResult,
  SubmitIntentOperationRequest,
  WithdrawalRequest,
  WithdrawalResponse,
} from '../../conformance/spec'
import type { Services } from '../services'

/**
 * The domain services the routes will call once later issues provide them. Each is optional:
 * a route whose service is absent validates its input and answers 501 NOT_IMPLEMENTED.
 * Services throw `ApiError` (simulator/http/errorCodes.ts) for answers other than success.
 */
export type DomainServices = {
  quoting?: QuotingService | undefined
  intents?: IntentService | undefined
  withdrawals?: WithdrawalService | undefined
  /**
   * The deposit processor for one tenant: configuration, deposits and events belong to the API
   * key, and two keys never see each other's (issue 6).
   */
  depositProcessor?: ((tenant: string) => DepositProcessorService) | undefined
  prices?: PriceService | undefined
}

/** What `buildApp` takes: the project's {@link Services} plus the domain services present. */
export type HttpServices = Services & DomainServices

/** Quotes routes (POST /intents/route, POST /quotes) and owns the quote store. */
export interface QuotingService {
  /** Version alps: a server-signed intentOp with its cost. */
  routeAlps(request: RouteRequest): Promise<AlpsRouteResponse>
  /** Version blanc: routes sorted by cost; the full intents stay in the quote store. */
  routeBlanc(request: RouteRequest): Promise<BlancRouteResponse>
  /** Empties the quote store, as a restart would (`POST /_devnet/quotes/reset`). */
  resetQuotes(): Promise<void>
}

/** Accepts signed intents and reports their status. */
export interface IntentService {
  /** POST /intent-operations (alps): answered with 201. */
  submitOperation(request: SubmitIntentOperationRequest): Promise<SubmissionResult>
  /** POST /intents/{intentId}/submit and POST /intents (blanc): answered with 201; unknown quote → ApiError NOT_FOUND. */
  submitQuoted(intentId: string, request: BlancSubmitRequest): Promise<BlancSubmitResponse>
  /** GET /intent-operation/{id} (alps); undefined → 404. */
  operationStatus(id: string): Promise<IntentStatus | undefined>
  /** GET /intents/{id} (blanc); undefined → 404. */
  intentStatus(id: string): Promise<BlancIntentStatus | undefined>
}

/** Allocator signatures for withdrawals from the Compact. */
export interface WithdrawalService {
  withdraw(request: WithdrawalRequest): Promise<WithdrawalResponse>
  batchWithdraw(request: BatchWithdrawalRequest): Promise<BatchWithdrawalResponse>
}

/** Paging of GET /deposit-processor/webhooks/events. */
export type WebhookEventsQuery = { limit?: number | undefined; cursor?: string | undefined }

/** The deposit processor's configuration, deposits and webhook outbox. */
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

/** The devnet's token prices (`POST /_devnet/prices`). */
export interface PriceService {
  /** Sets USD prices by token symbol; returns every price after the change. */
  setPrices(prices: Record<string, number>): Promise<Record<string, number>>
}
