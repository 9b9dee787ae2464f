import type { z } from 'zod'
import { z as zod } from 'zod'
import {
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
  DepositProcessorRegisterResponse,
  DepositProcessorSetupRequest,
  DepositProcessorSetupResponse,
  DevnetManifest,
  IntentStatus,
  Portfolio,
  PortfolioQuery,
  RouteRequest,
  SubmissionResult,
  SubmitIntentOperationRequest,
  WebhookEventList,
  WebhookEventListQuery,
  WithdrawalRequest,
  WithdrawalResponse,
} from '../../spec'
import { Address } from '../../spec/common'

/**
 * The routes the fuzzer generates requests for, with their schemas: one module, so that the
 * route table of spec/ (when it lands) replaces this list and stays the one source. Only routes
 * whose calls cannot disturb the run are here: the control API's writes (faults, clock, revert,
 * prices) are left out, its reads are kept for the key checks.
 */

/** A version by its short name, as scenarios write it. */
export type FuzzVersion = 'alps' | 'blanc'

/** One route: how it is called, what it answers, where the spec says so. */
export type FuzzRoute = {
  id: string
  method: 'GET' | 'POST'
  /** `{name}` for a path parameter. */
  path: string
  versions: readonly FuzzVersion[]
  /** `key`: a known `x-api-key`; `control`: the devnet's control API (a key too). */
  access: 'key' | 'control'
  /** The section of the spec (or facts, or DESIGN) it implements, in their words. */
  section: string
  request: { body?: z.ZodType; params?: z.ZodType; querystring?: z.ZodType }
  /** Success answers by status: one schema, or one per version. */
  responses: Record<number, z.ZodType | Partial<Record<FuzzVersion, z.ZodType>>>
}

const BOTH = ['alps', 'blanc'] as const
const ALPS = ['alps'] as const
const BLANC = ['blanc'] as const
const IdParams = zod.object({ id: zod.string().min(1) })

/** Every route the fuzzer drives, by id (the ids of spec/'s route table). */
export const FUZZ_ROUTES: readonly FuzzRoute[] = [
  {
    id: 'quote',
    method: 'POST',
    path: '/intents/route',
    versions: BOTH,
    access: 'key',
    section:
      'Endpoints › POST /intents/route: "Body: route request (see Resources). Response 200: route response, version alps; version blanc returns `routes[]`."',
    request: { body: RouteRequest },
    responses: { 200: { alps: AlpsRouteResponse, blanc: BlancRouteResponse } },
  },
  {
    id: 'submitOperation',
    method: 'POST',
    path: '/intent-operations',
    versions: ALPS,
    access: 'key',
    section:
      'Endpoints › POST /intent-operations (version alps): "Body: {signedIntentOp: submitted intent operation} (required). Response 201: {result: {id, status}}."',
    request: { body: SubmitIntentOperationRequest },
    responses: { 201: { alps: SubmissionResult } },
  },
  {
    id: 'submitQuoted',
    method: 'POST',
    path: '/intents/{intentId}/submit',
    versions: BLANC,
    access: 'key',
    section:
      'Endpoints › POST /intents/{intentId}/submit (version blanc): "Path parameter: intentId (string), taken from the chosen route. Body: {signatures: {origin, destination}}."',
    request: { params: zod.object({ intentId: zod.string().min(1) }), body: BlancSubmitRequest },
    responses: { 201: { blanc: BlancSubmitResponse } },
  },
  {
    id: 'operationStatus',
    method: 'GET',
    path: '/intent-operation/{id}',
    versions: ALPS,
    access: 'key',
    section: 'facts §1: GET /intent-operation/{id} (spec, Endpoints › Other endpoints: "not shown")',
    request: { params: zod.object({ id: zod.string().regex(/^\d+$/) }) },
    responses: { 200: { alps: IntentStatus } },
  },
  {
    id: 'intentStatus',
    method: 'GET',
    path: '/intents/{id}',
    versions: BLANC,
    access: 'key',
    section: 'facts §1: GET /intents/{id} (spec, Endpoints › Other endpoints: "not shown")',
    request: { params: IdParams },
    responses: { 200: { blanc: BlancIntentStatus } },
  },
  {
    id: 'portfolio',
    method: 'GET',
    path: '/accounts/{address}/portfolio',
    versions: BOTH,
    access: 'key',
    section: "facts §1: GET /accounts/{address}/portfolio (the public SDK's getPortfolio)",
    request: { params: zod.object({ address: Address }), querystring: PortfolioQuery },
    responses: { 200: Portfolio },
  },
  {
    id: 'withdraw',
    method: 'POST',
    path: '/withdrawals',
    versions: BOTH,
    access: 'key',
    section:
      'Endpoints › POST /withdrawals: "obtain the allocator signature for a withdrawal from the compact resource-lock contract. Body and response 200: see Withdrawal (single)."',
    request: { body: WithdrawalRequest },
    responses: { 200: WithdrawalResponse },
  },
  {
    id: 'batchWithdraw',
    method: 'POST',
    path: '/batch-withdrawals',
    versions: BOTH,
    access: 'key',
    section:
      'Endpoints › POST /batch-withdrawals: "obtain the allocator signature for a batch withdrawal. Body and response 200: see Withdrawal (batch)."',
    request: { body: BatchWithdrawalRequest },
    responses: { 200: BatchWithdrawalResponse },
  },
  {
    id: 'depositSetup',
    method: 'POST',
    path: '/deposit-processor/setup',
    versions: BOTH,
    access: 'key',
    section:
      'Endpoints › POST /deposit-processor/setup: "Body: {params: object with any of webhookUrl, webhookSecret, sponsorship, depositWhitelist, maxPriceDeviationBps}. All fields are optional."',
    request: { body: DepositProcessorSetupRequest },
    responses: { 200: DepositProcessorSetupResponse },
  },
  {
    id: 'depositGetSetup',
    method: 'GET',
    path: '/deposit-processor/setup',
    versions: BOTH,
    access: 'key',
    section: 'facts §1: GET /deposit-processor/setup (the configuration, secret masked)',
    request: {},
    responses: { 200: DepositProcessorConfig },
  },
  {
    id: 'depositRegister',
    method: 'POST',
    path: '/deposit-processor/register',
    versions: BOTH,
    access: 'key',
    section: 'facts §1: POST /deposit-processor/register',
    request: { body: DepositProcessorRegisterRequest },
    responses: { 200: DepositProcessorRegisterResponse },
  },
  {
    id: 'depositList',
    method: 'GET',
    path: '/deposit-processor/deposits',
    versions: BOTH,
    access: 'key',
    section: 'facts §1: GET /deposit-processor/deposits',
    request: { querystring: DepositListQuery },
    responses: { 200: DepositList },
  },
  {
    id: 'depositGet',
    method: 'GET',
    path: '/deposit-processor/deposits/{id}',
    versions: BOTH,
    access: 'key',
    section: 'facts §1: GET /deposit-processor/deposits/{id}',
    request: { params: IdParams },
    responses: { 200: Deposit },
  },
  {
    id: 'webhookEventList',
    method: 'GET',
    path: '/deposit-processor/webhooks/events',
    versions: BOTH,
    access: 'key',
    section: 'facts §1: GET /deposit-processor/webhooks/events',
    request: { querystring: WebhookEventListQuery },
    responses: { 200: WebhookEventList },
  },
  {
    id: 'manifest',
    method: 'GET',
    path: '/_devnet/manifest',
    versions: BOTH,
    access: 'control',
    section: 'DESIGN: The devnet control API ("Under /_devnet/ (same x-api-key)"): GET /_devnet/manifest',
    request: {},
    responses: { 200: DevnetManifest },
  },
]

/**
 * The schema a success answer of a route must match in a version; undefined when the route
 * documents no such status.
 *
 * @example
 * successSchema(routeById('quote'), 200, 'blanc') // BlancRouteResponse
 */
export function successSchema(route: FuzzRoute, status: number, version: FuzzVersion): z.ZodType | undefined {
  const entry = route.responses[status]
  if (!entry) return undefined
  if (typeof (entry as z.ZodType).safeParse === 'function') return entry as z.ZodType
  return (entry as Partial<Record<FuzzVersion, z.ZodType>>)[version]
}

/**
 * A route of {@link FUZZ_ROUTES} by id.
 *
 * @example
 * routeById('withdraw').path // '/withdrawals'
 */
export function routeById(id: string): FuzzRoute {
  const route = FUZZ_ROUTES.find((r) => r.id === id)
  if (!route) throw new Error(`No fuzz route ${id}.`)
  return route
}
