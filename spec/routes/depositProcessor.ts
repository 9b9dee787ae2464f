import { z } from 'zod'
import {
  Deposit,
  DepositList,
  DepositListQuery,
  DepositProcessorConfig,
  DepositProcessorRegisterRequest,
  DepositProcessorRegisterResponse,
  DepositProcessorSetupRequest,
  DepositProcessorSetupResponse,
  WebhookEvent,
  WebhookEventList,
  WebhookEventListQuery,
  WebhookResendFailedRequest,
  WebhookResendFailedResponse,
} from '../depositProcessor'
import { ALL_VERSIONS, defineRoutes } from '../routeTable'

/** Path parameters of a deposit or webhook event (`{id}`). */
export const IdParams = z.object({ id: z.string().min(1) })

const processor = { versions: ALL_VERSIONS, access: 'key', tag: 'deposit processor' } as const

/**
 * The deposit processor: its configuration (a partial update), account registration, the
 * deposits it saw and its webhook outbox. Each belongs to the caller's API key (its tenant).
 */
export const DEPOSIT_PROCESSOR_ROUTES = defineRoutes({
  depositSetup: {
    ...processor,
    method: 'POST',
    path: '/deposit-processor/setup',
    section:
      'Endpoints › POST /deposit-processor/setup: "Each call is a partial update; omitted fields keep their current value. To clear a field, send null for string or integer fields and {} for object fields."',
    summary: 'Configure the deposit processor (partial update; null or {} clears a field)',
    request: { body: DepositProcessorSetupRequest },
    responses: { 200: DepositProcessorSetupResponse },
    responseSection:
      'facts §1: POST /deposit-processor/setup answers {message} (spec, Endpoints › POST /deposit-processor/setup: "Response: not shown.")',
    independentOf: ['prices', 'clock'],
  },
  depositGetSetup: {
    ...processor,
    method: 'GET',
    path: '/deposit-processor/setup',
    section: 'facts §1: GET /deposit-processor/setup (the configuration, secret masked)',
    summary: 'The deposit processor configuration (secret masked)',
    responses: { 200: DepositProcessorConfig },
    independentOf: ['prices', 'clock'],
  },
  depositRegister: {
    ...processor,
    method: 'POST',
    path: '/deposit-processor/register',
    section: 'facts §1: POST /deposit-processor/register',
    summary: 'Register an account whose deposits the processor bridges',
    request: { body: DepositProcessorRegisterRequest },
    responses: { 200: DepositProcessorRegisterResponse },
  },
  depositList: {
    ...processor,
    method: 'GET',
    path: '/deposit-processor/deposits',
    section: 'facts §1: GET /deposit-processor/deposits',
    summary: 'Deposits the processor saw, newest first',
    request: { querystring: DepositListQuery },
    responses: { 200: DepositList },
  },
  depositGet: {
    ...processor,
    method: 'GET',
    path: '/deposit-processor/deposits/{id}',
    section: 'facts §1: GET /deposit-processor/deposits/{id}',
    summary: 'One deposit',
    request: { params: IdParams },
    responses: { 200: Deposit },
  },
  webhookEventList: {
    ...processor,
    method: 'GET',
    path: '/deposit-processor/webhooks/events',
    section: 'facts §1: GET /deposit-processor/webhooks/events',
    summary: 'Webhook events of the outbox, newest first',
    request: { querystring: WebhookEventListQuery },
    responses: { 200: WebhookEventList },
    // The outbox's events (and their resends) were priced when the deposits they report came in:
    // a scenario sees its own through the register route, which depends on prices.
    independentOf: ['prices'],
  },
  webhookEventResend: {
    ...processor,
    method: 'POST',
    path: '/deposit-processor/webhooks/events/{id}/resend',
    section: 'facts §1: POST /deposit-processor/webhooks/events/{id}/resend',
    summary: 'Deliver a webhook event again',
    request: { params: IdParams },
    responses: { 200: WebhookEvent },
    independentOf: ['prices'],
  },
  webhookResendFailed: {
    ...processor,
    method: 'POST',
    path: '/deposit-processor/webhooks/events/resend-failed',
    section:
      'devnet: POST /deposit-processor/webhooks/events/resend-failed (docs/deposit-processor.md › Delivery)',
    summary: 'Deliver every failed webhook event again (a fresh retry window each)',
    request: { body: WebhookResendFailedRequest },
    responses: { 200: WebhookResendFailedResponse },
    independentOf: ['prices'],
  },
  webhookTest: {
    ...processor,
    method: 'POST',
    path: '/deposit-processor/webhooks/test',
    section: 'facts §1: POST /deposit-processor/webhooks/test (a test event, `test: true`)',
    summary: 'Send a test event (`test: true`) to the configured webhook',
    responses: { 202: WebhookEvent },
    independentOf: ['prices'],
  },
})
