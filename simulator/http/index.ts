export { type BuildAppOptions, buildApp, DEFAULT_BODY_LIMIT } from './app'
export type {
  DepositProcessorService,
  DomainServices,
  HttpServices,
  IntentService,
  PriceService,
  QuotingService,
  WebhookEventsQuery,
  WithdrawalService,
} from './domainServices'
export { ApiError, type ApiErrorParameters, ERROR_CODES, type ErrorCode } from './errorCodes'
export type { HttpConfig } from './types'
