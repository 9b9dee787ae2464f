import { z } from 'zod'
import { AlpsRouteResponse } from '../alps'
import {
  BlancPublicSubmitRequest,
  BlancRouteResponse,
  BlancSubmitRequest,
  BlancSubmitResponse,
} from '../blanc'
import { Address } from '../common'
import { Portfolio, PortfolioQuery } from '../portfolio'
import { RouteRequest } from '../route'
import { ALL_VERSIONS, ALPS_ONLY, BLANC_ONLY, defineRoutes } from '../routeTable'
import { BlancIntentStatus, IntentStatus } from '../status'
import { SubmissionResult, SubmitIntentOperationRequest } from '../submission'
import {
  BatchWithdrawalRequest,
  BatchWithdrawalResponse,
  WithdrawalRequest,
  WithdrawalResponse,
} from '../withdrawals'

/** Path parameters of `POST /intents/{intentId}/submit`. */
export const IntentIdParams = z.object({ intentId: z.string().min(1) })
/** Path parameters of `GET /intent-operation/{id}` (an operation id is digits). */
export const OperationIdParams = z.object({
  id: z.string().regex(/^\d+$/, 'must be an intent operation id (digits only)'),
})
/** Path parameters of `GET /intents/{id}`. */
export const BlancIdParams = z.object({ id: z.string().min(1) })
/** Path parameters of `GET /accounts/{address}/portfolio`. */
export const PortfolioParams = z.object({ address: Address })

/**
 * The intent routes: quoting, submission and status in both versions, the public service's
 * blanc aliases, the portfolio and withdrawals.
 */
export const INTENT_ROUTES = defineRoutes({
  quote: {
    method: 'POST',
    path: '/intents/route',
    versions: ALL_VERSIONS,
    access: 'key',
    section:
      'Endpoints › POST /intents/route: "Body: route request (see Resources). Response 200: route response, version alps; version blanc returns `routes[]`."',
    summary: 'Quote an intent (alps: intentOp + intentCost; blanc: routes[])',
    tag: 'intents',
    request: { body: RouteRequest },
    responses: { 200: { '2026-01.alps': AlpsRouteResponse, '2026-04.blanc': BlancRouteResponse } },
  },
  quotePublic: {
    method: 'POST',
    path: '/quotes',
    versions: BLANC_ONLY,
    access: 'key',
    section:
      "facts §1: POST /quotes (the public service's path of the blanc quote; DESIGN: served as an alias)",
    summary: 'Quote an intent (public blanc alias of POST /intents/route)',
    tag: 'intents',
    request: { body: RouteRequest },
    responses: { 200: { '2026-04.blanc': BlancRouteResponse } },
    aliasOf: { route: 'quote', version: 'blanc' },
  },
  submitOperation: {
    method: 'POST',
    path: '/intent-operations',
    versions: ALPS_ONLY,
    access: 'key',
    section:
      'Endpoints › POST /intent-operations (version alps): "Body: {signedIntentOp: submitted intent operation} (required). Response 201: {result: {id, status}}."',
    summary: 'Submit a signed intent operation (alps)',
    tag: 'intents',
    request: { body: SubmitIntentOperationRequest },
    responses: { 201: { '2026-01.alps': SubmissionResult } },
  },
  submitQuoted: {
    method: 'POST',
    path: '/intents/{intentId}/submit',
    versions: BLANC_ONLY,
    access: 'key',
    section:
      'Endpoints › POST /intents/{intentId}/submit (version blanc): "Path parameter: intentId (string), taken from the chosen route. Body: {signatures: {origin, destination}}. Nothing else is sent."',
    summary: 'Submit the signatures of a quoted route (blanc)',
    tag: 'intents',
    request: { params: IntentIdParams, body: BlancSubmitRequest },
    responses: { 201: { '2026-04.blanc': BlancSubmitResponse } },
    responseSection:
      'facts §1: POST /intents → 201 {intentId} (spec, Endpoints › POST /intents/{intentId}/submit: "Response: not shown.")',
  },
  submitPublic: {
    method: 'POST',
    path: '/intents',
    versions: BLANC_ONLY,
    access: 'key',
    section:
      'facts §1: POST /intents (the public blanc submit, the intent id in the body; DESIGN: served as an alias)',
    summary: 'Submit the signatures of a quoted route (public blanc alias; the intent id in the body)',
    tag: 'intents',
    request: { body: BlancPublicSubmitRequest },
    responses: { 201: { '2026-04.blanc': BlancSubmitResponse } },
    aliasOf: { route: 'submitQuoted', pathParamsInBody: ['intentId'] },
  },
  operationStatus: {
    method: 'GET',
    path: '/intent-operation/{id}',
    versions: ALPS_ONLY,
    access: 'key',
    section: 'facts §1: GET /intent-operation/{id} (spec, Endpoints › Other endpoints: "not shown")',
    summary: 'Status of a submitted intent operation (alps)',
    tag: 'intents',
    request: { params: OperationIdParams },
    responses: { 200: { '2026-01.alps': IntentStatus } },
  },
  intentStatus: {
    method: 'GET',
    path: '/intents/{id}',
    versions: BLANC_ONLY,
    access: 'key',
    section: 'facts §1: GET /intents/{id} (spec, Endpoints › Other endpoints: "not shown")',
    summary: 'Status of an intent (public blanc)',
    tag: 'intents',
    request: { params: BlancIdParams },
    responses: { 200: { '2026-04.blanc': BlancIntentStatus } },
    caip2: { response: ['/operations/*/chain'] },
  },
  portfolio: {
    method: 'GET',
    path: '/accounts/{address}/portfolio',
    versions: ALL_VERSIONS,
    access: 'key',
    section: "facts §1: GET /accounts/{address}/portfolio (the public SDK's getPortfolio)",
    summary: "An account's tokens, locked in the Compact and unlocked, per chain",
    tag: 'accounts',
    request: { params: PortfolioParams, querystring: PortfolioQuery },
    responses: { 200: Portfolio },
    // Balances in raw token units, locked in the Compact and not (spec/portfolio.ts): no price.
    independentOf: ['prices'],
  },
  withdraw: {
    method: 'POST',
    path: '/withdrawals',
    versions: ALL_VERSIONS,
    access: 'key',
    section:
      'Endpoints › POST /withdrawals: "obtain the allocator signature for a withdrawal from the compact resource-lock contract. Body and response 200: see Withdrawal (single)."',
    summary: 'Allocator signature for a withdrawal from the Compact',
    tag: 'withdrawals',
    request: { body: WithdrawalRequest },
    responses: { 200: WithdrawalResponse },
    independentOf: ['prices'],
  },
  batchWithdraw: {
    method: 'POST',
    path: '/batch-withdrawals',
    versions: ALL_VERSIONS,
    access: 'key',
    section:
      'Endpoints › POST /batch-withdrawals: "obtain the allocator signature for a batch withdrawal. Body and response 200: see Withdrawal (batch)."',
    summary: 'Allocator signature for a batch withdrawal from the Compact',
    tag: 'withdrawals',
    request: { body: BatchWithdrawalRequest },
    responses: { 200: BatchWithdrawalResponse },
    independentOf: ['prices'],
  },
})
