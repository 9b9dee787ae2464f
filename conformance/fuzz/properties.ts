import type { z } from 'zod'
import { type SpecSchemaName, specSchemaNameOf } from '../../spec'
import type { HttpExpect } from '../scenario/schema'
import { type FuzzRoute, type FuzzVersion, successSchema } from './routes'

/**
 * The properties the fuzzer checks, each with the words of the spec it enforces, and the
 * expectations (in the scenario format's `expect`) that state them: the fuzzer judges every
 * answer with the conformance runner's own evaluation of these, so the scenario written for a
 * finding fails exactly as the fuzzer saw it fail.
 */
export const PROPERTIES = {
  'no-5xx': {
    title: 'No request of a client answers 5xx',
    spec: 'Errors; RFC 9110 §15.6: a 5xx status says "the server failed to fulfill an apparently valid request" — a client\'s input, valid or not, is answered by the service, not by its failure',
  },
  'invalid-input': {
    title: "Invalid input answers a 4xx in the version's envelope that names the problem",
    spec: 'Resources (each field\'s type, "required"); Errors ("Error body format and status codes for validation and authentication failures") and facts §1 error bodies',
  },
  'response-schema': {
    title: "Valid input answers the route's schema (or a 4xx in the version's envelope)",
    spec: 'Endpoints (each route\'s "Response"); Resources; Versioning §3, §6',
  },
  'key-required': {
    title: 'Every keyed route refuses a missing or wrong x-api-key',
    spec: 'Authentication §1: "Every request to the endpoints above carries the header `x-api-key` (string, required) holding the caller\'s <API_KEY>."',
  },
  'limit-at-value': {
    title: 'A limit holds exactly at its value: the value itself is accepted',
    spec: 'Limits: "preClaimExecutions operations per chain | max 10", "preClaimExecutions chains | max 5"',
  },
  'limit-over': {
    title: 'A limit holds exactly at its value: one over is refused, naming it',
    spec: 'Limits: "preClaimExecutions operations per chain | max 10", "preClaimExecutions chains | max 5"',
  },
  'version-header': {
    title:
      'An unknown or malformed x-api-version is refused naming the header; a path of the other version answers 404',
    spec: 'Versioning §1, §3: "Format: `YYYY-MM.name`, pattern `^\\d{4}-\\d{2}\\.[a-z0-9]+$`", "Versions in use: `2026-01.alps` … and `2026-04.blanc`"; Differences between alps and blanc',
  },
  'quote-consumed-once': {
    title: 'A blanc quote is consumed once: a second submit answers 404',
    spec: 'States and transitions, rule 3: "A quoted intent (version blanc) is stored server-side with a short lifetime. After it expires, or after the quote store restarts, a submit for its id answers 404."; Errors: "HTTP 404 | submit of a quoted intent whose stored quote has expired or been lost (blanc)"',
  },
  'intent-accepted-once': {
    title: 'An alps intent operation is accepted once: a second submission answers 409',
    spec: 'Endpoints › POST /intent-operations (version alps): "Response 201: {result: {id, status}}"; facts §1: a duplicate submission answers 409',
  },
  'quote-expires': {
    title: 'A blanc quote submitted after its lifetime answers 404',
    spec: 'States and transitions, rule 3: "After it expires … a submit for its id answers 404. The caller re-quotes; it does not retry the submit."',
  },
  'status-forward': {
    title: 'An intent status only moves forward',
    spec: 'States and transitions: "(none) → PENDING"; facts §1: PENDING → PRECONFIRMED → CLAIMED → FILLED → COMPLETED, or FAILED / EXPIRED (final)',
  },
  'settled-exactly': {
    title: "A COMPLETED intent's transactions are mined and the balances moved by exactly the quoted amounts",
    spec: 'What the service does ("delivers the requested tokens on the destination chain"); Resources › Mandate (`tokenOut`: what the filler must deliver); Resources › Element (`idsAndAmounts`: what leaves each origin) and settlementContext (`fundingMethod`: the wallet through Permit2, or the Compact lock); Resources › Version blanc route shape (`cost.input` items have an `amount`); facts §1: GET /intent-operation/{id} (fillTransactionHash, claims[].claimTransactionHash); facts §3 (The Compact: ERC-6909 lock balances)',
  },
  'deposit-webhook': {
    title: 'A deposit to a registered account is reported by webhook, signed with the configured secret',
    spec: 'What the service does: "Runs a deposit processor. A caller configures it through one partial-update endpoint: a webhook, …"; Authentication §2: "When a `webhookSecret` is configured, each webhook request sent by the service carries the header `X-Webhook-Signature`, an HMAC-SHA256 signature made with that secret."; facts §1: webhook types deposit-received, bridge-complete, bridge-failed',
  },
  'deposit-status-forward': {
    title:
      "A deposit's status only moves forward: once final (completed, failed, rejected, …) it never changes",
    spec: 'facts §1: deposit statuses processing, delayed, expecting_refund, completed, failed, rejected, refunded, ignored; GET /deposit-processor/deposits (filters txHash, account)',
  },
  'deposit-once': {
    title:
      'Each deposit is processed once: one record per deposit transaction, completed for exactly its amount',
    spec: 'Endpoints › POST /deposit-processor/setup: "When no whitelist is set, all supported tokens are accepted with no amount limits."; facts §1: GET /deposit-processor/deposits (filters txHash, account)',
  },
  'deposit-settled-exactly': {
    title:
      'An accepted deposit with every fee sponsored is paid out once on the target chain, for exactly its amount: bridge-complete, the payout mined, the balance',
    spec: 'What the service does: "Runs a deposit processor. A caller configures it through one partial-update endpoint: a webhook, fee sponsorship per source chain, …"; Deposit-processor configuration: sponsorship "per source chain … Fee types named: gas, bridging, swap"; facts §1: bridge-complete; docs/deposit-processor.md › Sponsorship and fees (what is sponsored is not deducted)',
  },
  'withdrawal-schema': {
    title: 'A withdrawal of a funded lock answers the allocator signature in the spec schema',
    spec: 'Endpoints › POST /withdrawals, POST /batch-withdrawals: "Body and response 200: see Withdrawal (single)" / "(batch)"',
  },
} as const

/** A property of {@link PROPERTIES}. */
export type PropertyName = keyof typeof PROPERTIES

/** One alternative of an expectation's `anyOf`. */
type Alternative = NonNullable<HttpExpect['anyOf']>[number]

/** Where a version's envelope keeps its (first) message. */
export const MESSAGE_POINTER = { alps: '/errors/0/message', blanc: '/message' } as const

/**
 * The name a scenario gives a spec schema (its `specSchemas` key), by identity.
 *
 * @example
 * schemaName(BlancRouteResponse) // 'BlancRouteResponse'
 */
export function schemaName(schema: z.ZodType): SpecSchemaName | undefined {
  return specSchemaNameOf(schema)
}

/** A regex source matching any of the names, escaped. */
export function anyOfNames(names: readonly string[]): string {
  const unique = [...new Set(names)].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return unique.length === 1 ? unique[0]! : `(${unique.join('|')})`
}

/** `status: {not: 5xx}`: the property every answer holds. */
export const NO_5XX: HttpExpect = { status: { not: '5xx' } }

/** What names the key in a refusal (as the authentication pack reads it). */
const KEY_REASON = 'x-api-key|api.?key|unauthori[sz]ed|authenticat|credential|forbidden'

/**
 * A success of the route in the version, in its schema, or a 4xx (a domain refusal such as an
 * unfunded account; a 404 where the route takes an id that may not exist). The spec's words
 * are MUST; the version's envelope on a refusal is the public service's (SHOULD), as the packs
 * grade them.
 */
export function validExpectation(route: FuzzRoute, version: FuzzVersion): HttpExpect {
  const successes: Alternative[] = Object.keys(route.responses).flatMap((status) => {
    const schema = successSchema(route, Number(status), version)
    const name = schema && schemaName(schema)
    // A success whose schema the spec does not name is checked by its status only.
    return name ? [{ status: Number(status), schema: name }] : [{ status: Number(status) }]
  })
  const refusals: Alternative[] = route.path.includes('{')
    ? [{ status: '4xx' }, { status: 404 }]
    : [{ status: '4xx' }]
  return {
    anyOf: [...successes, ...refusals],
    should: { anyOf: [...successes, { status: '4xx', envelope: version }] },
  }
}

/**
 * A 4xx whose reasons name one of `fields` (MUST); 400 in the version's envelope (SHOULD). On
 * a route whose path names a resource (`/intents/{intentId}/submit`), a 404 for a resource that
 * does not exist is an answer too: which is checked first is the target's choice.
 */
export function invalidExpectation(
  version: FuzzVersion,
  fields: readonly string[],
  route?: FuzzRoute,
): HttpExpect {
  const refusal: Alternative = {
    status: '4xx',
    ...(fields.length > 0 && { reason: { matches: anyOfNames(fields) } }),
  }
  const should: HttpExpect['should'] = { status: 400, envelope: version }
  if (route && namesResource(route)) return { anyOf: [refusal, { status: 404 }], should }
  return { ...refusal, should }
}

/**
 * Whether a route's path names a resource the service made (an intent, a deposit) rather than
 * taking a value (an account's address): a 404 there says "no such resource".
 *
 * @example
 * namesResource(routeById('intentStatus')) // true
 */
export function namesResource(route: FuzzRoute): boolean {
  return /\{(id|intentId)\}/.test(route.path)
}

/** A 4xx naming the key (MUST); 401 in the version's envelope (SHOULD). */
export function unauthorizedExpectation(version: FuzzVersion): HttpExpect {
  return { status: '4xx', reason: { matches: KEY_REASON }, should: { status: 401, envelope: version } }
}

/** The limit's value itself: a success, or a 4xx whose reasons are not about that limit. */
export function atLimitExpectation(route: FuzzRoute, version: FuzzVersion, field: string): HttpExpect {
  const valid = validExpectation(route, version)
  const notAboutLimit = `^(?![\\s\\S]*(${anyOfNames([field]).replace(/^\(|\)$/g, '')}|at most|too (big|many)|limit))`
  return {
    anyOf: [
      ...(valid.anyOf ?? []).filter(
        (alternative) => alternative.status !== '4xx' && alternative.status !== 404,
      ),
      { status: '4xx', reason: { matches: notAboutLimit } },
    ],
    should: valid.should,
  }
}

/** One over the limit: a 4xx naming it (MUST); 400 in the version's envelope (SHOULD). */
export function overLimitExpectation(version: FuzzVersion, field: string, limit: number): HttpExpect {
  return {
    status: '4xx',
    // The field, or the limit as a limit ("at most 10"): a bare "10" is also a chain id.
    reason: {
      matches: `${field}|(at most|more than|max(imum)?|up to|exceeds?|limit(ed)?( of| to)?) ${limit}\\b`,
    },
    should: { status: 400, envelope: version },
  }
}

/** A 4xx naming `x-api-version` (MUST); 400 in either envelope (SHOULD: the version is unknown, so is its envelope). */
export const BAD_VERSION_HEADER: HttpExpect = {
  status: '4xx',
  reason: { matches: 'x-api-version' },
  should: { status: 400, anyOf: [{ envelope: 'alps' }, { envelope: 'blanc' }] },
}

/** 404 in the version's envelope: a path the version does not serve. */
export function otherVersionPathExpectation(version: FuzzVersion): HttpExpect {
  return { status: 404, envelope: version }
}
