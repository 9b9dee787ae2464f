export { type ObservedDeposit, type ScanBlocksParameters, scanBlocks, transferEvent } from './chainWatcher'
export {
  type ConfigStore,
  createConfigStore,
  DEFAULT_MAX_PRICE_DEVIATION_BPS,
  type DepositProcessorConfiguration,
  maskSecret,
  type Registration,
} from './configStore'
export {
  type CreateDepositProcessorParameters,
  createDepositProcessor,
  type DepositProcessor,
} from './createDepositProcessor'
export {
  type CreateDepositStoreParameters,
  createDepositStore,
  type DepositStore,
} from './createDepositStore'
export { deliverWebhook, isDelivered, type WebhookAttempt } from './deliverWebhook'
export { BRIDGE_ERROR_CODE, type DepositEventType, depositEventId } from './depositEvents'
export type { DepositRecord, DepositStatus, DepositView } from './depositRecord'
export { AccountTakenError, InvalidConfigurationError, StateFileError } from './errors'
export { type DepositPage, getDeposit, listDeposits } from './listDeposits'
export { type Page, type PageQuery, paginate } from './paginate'
export { findPayout, payOut } from './payOut'
export { receiveDeposit } from './receiveDeposit'
export {
  BRIDGE_FEE_BPS,
  type DepositErrorCode,
  evaluateDeposit,
  isStablecoin,
  PAYOUT_GAS,
  planPayout,
  priceDeviationBps,
} from './rules'
export { scanDeposits } from './scanDeposits'
export { signWebhookBody, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from './signWebhook'
export { tenantIdOf } from './tenants'
export { createTokenDirectory, NATIVE_TOKEN, type TokenDirectory } from './tokenDirectory'
export type { DepositChain, DepositContext, SendRelayerTransaction } from './types'
export { type DepositWatcher, watchDeposits } from './watchDeposits'
export {
  createWebhookOutbox,
  DEFAULT_RETRY_POLICY,
  type RetryPolicy,
  retryDelayMs,
  type WebhookEventStatus,
  type WebhookOutbox,
  type WebhookTarget,
} from './webhookOutbox'
