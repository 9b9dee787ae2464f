import type { SpecSchemaName } from '../../spec'

/** One route of the spec (and the public service's aliases) and the schema of its success answer. */
type RouteSchema = {
  method: string
  path: RegExp
  /** The answer's schema; a function when it depends on the version the request spoke. */
  schema: SpecSchemaName | ((version: 'alps' | 'blanc') => SpecSchemaName)
}

const ROUTES: readonly RouteSchema[] = [
  {
    method: 'POST',
    path: /^\/intents\/route$/,
    schema: (v) => (v === 'alps' ? 'AlpsRouteResponse' : 'BlancRouteResponse'),
  },
  { method: 'POST', path: /^\/quotes$/, schema: 'BlancRouteResponse' },
  { method: 'POST', path: /^\/intent-operations$/, schema: 'SubmissionResult' },
  { method: 'POST', path: /^\/intents\/[^/]+\/submit$/, schema: 'BlancSubmitResponse' },
  { method: 'POST', path: /^\/intents$/, schema: 'BlancSubmitResponse' },
  { method: 'GET', path: /^\/intent-operation\/[^/]+$/, schema: 'IntentStatus' },
  { method: 'GET', path: /^\/intents\/[^/]+$/, schema: 'BlancIntentStatus' },
  { method: 'GET', path: /^\/accounts\/[^/]+\/portfolio$/, schema: 'Portfolio' },
  { method: 'POST', path: /^\/withdrawals$/, schema: 'WithdrawalResponse' },
  { method: 'POST', path: /^\/batch-withdrawals$/, schema: 'BatchWithdrawalResponse' },
  { method: 'POST', path: /^\/deposit-processor\/setup$/, schema: 'DepositProcessorSetupResponse' },
  { method: 'GET', path: /^\/deposit-processor\/setup$/, schema: 'DepositProcessorConfig' },
  { method: 'POST', path: /^\/deposit-processor\/register$/, schema: 'DepositProcessorRegisterResponse' },
  { method: 'GET', path: /^\/deposit-processor\/deposits$/, schema: 'DepositList' },
  { method: 'GET', path: /^\/deposit-processor\/deposits\/[^/]+$/, schema: 'Deposit' },
  { method: 'GET', path: /^\/deposit-processor\/webhooks\/events$/, schema: 'WebhookEventList' },
  {
    method: 'POST',
    path: /^\/deposit-processor\/webhooks\/events\/resend-failed$/,
    schema: 'WebhookResendFailedResponse',
  },
  { method: 'POST', path: /^\/deposit-processor\/webhooks\/events\/[^/]+\/resend$/, schema: 'WebhookEvent' },
  { method: 'POST', path: /^\/deposit-processor\/webhooks\/test$/, schema: 'WebhookEvent' },
  { method: 'GET', path: /^\/_devnet\/manifest$/, schema: 'DevnetManifest' },
]

/**
 * The spec schema of a route's success answer, by method and path (query left out), for the
 * version the request spoke; undefined for a route the spec gives no schema.
 *
 * @example
 * routeSchema('GET', '/intents/abc', 'blanc') // 'BlancIntentStatus'
 */
export function routeSchema(
  method: string,
  path: string,
  version: 'alps' | 'blanc',
): SpecSchemaName | undefined {
  const bare = path.split('?')[0] ?? path
  const route = ROUTES.find((r) => r.method === method && r.path.test(bare))
  if (!route) return undefined
  return typeof route.schema === 'function' ? route.schema(version) : route.schema
}
