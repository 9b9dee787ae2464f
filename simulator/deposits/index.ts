export { type ObservedDeposit, type ScanBlocksParameters, scanBlocks, transferEvent } from './chainWatcher'
export {
  createConfigStore,
  createTokenDirectory,
  DEFAULT_MAX_PRICE_DEVIATION_BPS,
  type DepositProcessorConfiguration,
  maskSecret,
  NATIVE_TOKEN,
  type Registration,
  type TokenDirectory,
} from './configStore'
export {
  BRIDGE_ERROR_CODE,
  type CreateDepositProcessorParameters,
  createDepositProcessor,
  type DepositChain,
  type DepositProcessor,
  type DepositRecord,
  type DepositStatus,
  type ListDepositsQuery,
  tenantIdOf,
} from './createDepositProcessor'
export { createDepositProcessorService } from './depositProcessorService'
export { AccountTakenError, InvalidConfigurationError, StateFileError } from './errors'
export {
  BRIDGE_FEE_BPS,
  type DepositErrorCode,
  evaluateDeposit,
  isStablecoin,
  PAYOUT_GAS,
  planPayout,
  priceDeviationBps,
} from './rules'
export { signWebhookBody, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from './signWebhook'
export type { DepositProcessorService, WebhookEventsQuery } from './types'
export {
  createWebhookOutbox,
  DEFAULT_RETRY_POLICY,
  type RetryPolicy,
  retryDelayMs,
  type WebhookAttempt,
  type WebhookEventStatus,
  type WebhookEventView,
  type WebhookOutbox,
  type WebhookTarget,
} from './webhookOutbox'
