/**
 * The API of the service as the spec documents it, as zod schemas: the single source of its
 * shapes. The simulator validates with them and generates its OpenAPI document from them; the
 * conformance runner checks any target against them (by name, through {@link specSchemas}).
 */
import type { z } from 'zod'
import { Account, EmissaryConfig, SetupOp, SignedMetadataAccount } from './account'
import {
  AlpsRouteResponse,
  Authorization,
  Element,
  FeeParts,
  IntentCost,
  IntentOp,
  Mandate,
  SettlementContext,
  SignedMetadata,
  SwapDestination,
} from './alps'
import {
  BlancPublicSubmitRequest,
  BlancRoute,
  BlancRouteResponse,
  BlancSubmitRequest,
  BlancSubmitResponse,
  TypedData,
} from './blanc'
import {
  Deposit,
  DepositList,
  DepositProcessorConfig,
  DepositProcessorParams,
  DepositProcessorRegisterRequest,
  DepositProcessorRegisterResponse,
  DepositProcessorSetupRequest,
  DepositProcessorSetupResponse,
  DepositWhitelistEntry,
  WebhookDeliveryAttempt,
  WebhookEvent,
  WebhookEventList,
  WebhookEventListQuery,
  WebhookResendFailedRequest,
  WebhookResendFailedResponse,
} from './depositProcessor'
import { ClockAdvanceRequest, DevnetManifest, FaultsRequest, PricesRequest } from './devnet'
import { AlpsErrorEnvelope, BlancErrorEnvelope } from './errors'
import { Portfolio, PortfolioQuery, PortfolioToken } from './portfolio'
import { AccountAccessList, Execution, RouteOptions, RouteRequest, TokenRequest } from './route'
import { BlancIntentStatus, IntentStatus } from './status'
import { SignedIntentOp, SubmissionResult, SubmitIntentOperationRequest } from './submission'
import { BridgeFailedData, WebhookEnvelope } from './webhook'
import {
  BatchWithdrawalRequest,
  BatchWithdrawalResponse,
  Component,
  WithdrawalRequest,
  WithdrawalResponse,
} from './withdrawals'

export * from './account'
export * from './alps'
export * from './blanc'
export * from './common'
export * from './depositProcessor'
export * from './devnet'
export * from './errors'
export * from './portfolio'
export * from './route'
export * from './routes'
export * from './routeTable'
export * from './status'
export * from './submission'
export * from './webhook'
export * from './withdrawals'

/** One named schema of the spec, with the section of the spec it encodes. */
export type SpecSchemaEntry = { schema: z.ZodType; section: string }

/**
 * Every schema of the spec by the name the spec gives it, with its section. Scenario files name
 * schemas from this table (`expect.schema: AlpsRouteResponse`).
 */
export const specSchemas = {
  Account: { schema: Account, section: 'Resources › Account' },
  SetupOp: { schema: SetupOp, section: 'Resources › Account' },
  SignedMetadataAccount: { schema: SignedMetadataAccount, section: 'Resources › Account' },
  EmissaryConfig: { schema: EmissaryConfig, section: 'Resources › Account' },
  TokenRequest: { schema: TokenRequest, section: 'Resources › Token request' },
  Execution: { schema: Execution, section: 'Resources › Execution' },
  AccountAccessList: { schema: AccountAccessList, section: 'Resources › Route request' },
  RouteOptions: { schema: RouteOptions, section: 'Resources › Route request' },
  RouteRequest: { schema: RouteRequest, section: 'Resources › Route request' },
  AlpsRouteResponse: { schema: AlpsRouteResponse, section: 'Resources › Route response, version alps' },
  IntentOp: { schema: IntentOp, section: 'Resources › IntentOp' },
  Authorization: { schema: Authorization, section: 'Resources › IntentOp' },
  Element: { schema: Element, section: 'Resources › IntentOp (Element)' },
  Mandate: { schema: Mandate, section: 'Resources › IntentOp (Mandate)' },
  SettlementContext: { schema: SettlementContext, section: 'Resources › IntentOp (settlementContext)' },
  SwapDestination: { schema: SwapDestination, section: 'Resources › IntentOp (SwapDestination)' },
  SignedMetadata: { schema: SignedMetadata, section: 'Resources › SignedMetadata' },
  IntentCost: { schema: IntentCost, section: 'Resources › IntentCost' },
  FeeParts: { schema: FeeParts, section: 'Resources › IntentCost (FeeParts)' },
  SignedIntentOp: { schema: SignedIntentOp, section: 'Resources › Submitted intent operation' },
  SubmitIntentOperationRequest: {
    schema: SubmitIntentOperationRequest,
    section: 'Endpoints › POST /intent-operations',
  },
  SubmissionResult: { schema: SubmissionResult, section: 'Resources › Submission result' },
  WithdrawalRequest: { schema: WithdrawalRequest, section: 'Resources › Withdrawal (single)' },
  WithdrawalResponse: { schema: WithdrawalResponse, section: 'Resources › Withdrawal (single)' },
  BatchWithdrawalRequest: { schema: BatchWithdrawalRequest, section: 'Resources › Withdrawal (batch)' },
  BatchWithdrawalResponse: { schema: BatchWithdrawalResponse, section: 'Resources › Withdrawal (batch)' },
  Component: { schema: Component, section: 'Resources › Withdrawal' },
  DepositProcessorParams: {
    schema: DepositProcessorParams,
    section: 'Resources › Deposit-processor configuration',
  },
  DepositWhitelistEntry: {
    schema: DepositWhitelistEntry,
    section: 'Resources › Deposit-processor configuration',
  },
  DepositProcessorSetupRequest: {
    schema: DepositProcessorSetupRequest,
    section: 'Endpoints › POST /deposit-processor/setup',
  },
  DepositProcessorSetupResponse: {
    schema: DepositProcessorSetupResponse,
    section: 'Endpoints › POST /deposit-processor/setup',
  },
  DepositProcessorConfig: {
    schema: DepositProcessorConfig,
    section: 'Endpoints › POST /deposit-processor/setup',
  },
  DepositProcessorRegisterRequest: {
    schema: DepositProcessorRegisterRequest,
    section: 'facts §1: POST /deposit-processor/register',
  },
  DepositProcessorRegisterResponse: {
    schema: DepositProcessorRegisterResponse,
    section: 'facts §1: POST /deposit-processor/register',
  },
  Deposit: { schema: Deposit, section: 'facts §1: GET /deposit-processor/deposits/{id}' },
  DepositList: { schema: DepositList, section: 'facts §1: GET /deposit-processor/deposits' },
  WebhookEventListQuery: {
    schema: WebhookEventListQuery,
    section: 'facts §1: GET /deposit-processor/webhooks/events',
  },
  WebhookEventList: { schema: WebhookEventList, section: 'facts §1: GET /deposit-processor/webhooks/events' },
  WebhookEvent: {
    schema: WebhookEvent,
    section:
      'facts §1: GET /deposit-processor/webhooks/events, POST /deposit-processor/webhooks/events/{id}/resend, POST /deposit-processor/webhooks/test',
  },
  WebhookResendFailedRequest: {
    schema: WebhookResendFailedRequest,
    section:
      'devnet: POST /deposit-processor/webhooks/events/resend-failed (docs/deposit-processor.md › Delivery)',
  },
  WebhookResendFailedResponse: {
    schema: WebhookResendFailedResponse,
    section:
      'devnet: POST /deposit-processor/webhooks/events/resend-failed (docs/deposit-processor.md › Delivery)',
  },
  WebhookDeliveryAttempt: {
    schema: WebhookDeliveryAttempt,
    section: 'facts §1: GET /deposit-processor/webhooks/events',
  },
  BlancRouteResponse: { schema: BlancRouteResponse, section: 'Resources › Version blanc route shape' },
  BlancRoute: { schema: BlancRoute, section: 'Resources › Version blanc route shape' },
  TypedData: { schema: TypedData, section: 'Authentication §4' },
  BlancSubmitRequest: { schema: BlancSubmitRequest, section: 'Endpoints › POST /intents/{intentId}/submit' },
  BlancPublicSubmitRequest: { schema: BlancPublicSubmitRequest, section: 'facts §1: POST /intents' },
  BlancSubmitResponse: { schema: BlancSubmitResponse, section: 'facts §1: POST /intents' },
  IntentStatus: { schema: IntentStatus, section: 'facts §1: GET /intent-operation/{id}' },
  BlancIntentStatus: { schema: BlancIntentStatus, section: 'facts §1: GET /intents/{id}' },
  WebhookEnvelope: { schema: WebhookEnvelope, section: 'Events; facts §1 webhook envelope' },
  BridgeFailedData: { schema: BridgeFailedData, section: 'Events (bridge-failed); Errors' },
  AlpsErrorEnvelope: { schema: AlpsErrorEnvelope, section: 'Errors; facts §1 error bodies (alps)' },
  BlancErrorEnvelope: { schema: BlancErrorEnvelope, section: 'Errors; facts §1 error bodies (blanc)' },
  DevnetManifest: { schema: DevnetManifest, section: 'DESIGN: devnet control API' },
  ClockAdvanceRequest: { schema: ClockAdvanceRequest, section: 'DESIGN: devnet control API' },
  PricesRequest: { schema: PricesRequest, section: 'DESIGN: devnet control API' },
  FaultsRequest: { schema: FaultsRequest, section: 'DESIGN: devnet control API' },
  Portfolio: { schema: Portfolio, section: 'facts §1: GET /accounts/{address}/portfolio' },
  PortfolioToken: { schema: PortfolioToken, section: 'facts §1: GET /accounts/{address}/portfolio' },
  PortfolioQuery: { schema: PortfolioQuery, section: 'facts §1: GET /accounts/{address}/portfolio' },
} as const satisfies Record<string, SpecSchemaEntry>

export type SpecSchemaName = keyof typeof specSchemas
export * from './eip712Types'

const nameBySchema = new Map<z.ZodType, SpecSchemaName>(
  Object.entries(specSchemas).map(([name, entry]) => [entry.schema, name as SpecSchemaName]),
)

/**
 * The name {@link specSchemas} gives a schema (what a scenario file writes as `expect.schema`),
 * or undefined for a schema it does not name.
 *
 * @example
 * specSchemaNameOf(ROUTES.intentStatus.responses[200]['2026-04.blanc']) // 'BlancIntentStatus'
 */
export function specSchemaNameOf(schema: z.ZodType): SpecSchemaName | undefined {
  return nameBySchema.get(schema)
}
export * from './controlClient'
export * from './startOptions'
