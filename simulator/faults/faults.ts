import { BaseError } from '../../spec/BaseError'

/**
 * The faults the simulator can inject, each making it break exactly one rule of the contract,
 * so that a conformance check can prove it catches that violation. Name → one-line description.
 */
export const FAULT_CATALOGUE = {
  // Versioning
  'version.missing-as-blanc': 'A request without `x-api-version` is served as 2026-04.blanc instead of alps.',
  'version.accept-unknown':
    'An unknown but well-formed `x-api-version` is served as alps instead of rejected.',
  'version.accept-malformed':
    'A malformed `x-api-version` (not YYYY-MM.name) is served as alps instead of rejected.',
  'version.serve-other-version-paths':
    "A path only the other version serves is routed anyway instead of answering 404 in the request's envelope.",
  // Authentication
  'auth.accept-missing-key': 'A request without `x-api-key` is accepted (a wrong key is still rejected).',
  'auth.accept-wrong-key':
    'A request with an unknown `x-api-key` is accepted (a missing key is still rejected).',
  'auth.control-api-open': 'The `/_devnet/` control API answers without a valid `x-api-key`.',
  // Limits
  'limits.accept-11-ops': 'preClaimExecutions may carry more than 10 operations on a chain.',
  'limits.accept-6-chains': 'preClaimExecutions may name more than 5 chains.',
  'limits.refuse-10-ops':
    'preClaimExecutions with exactly 10 operations on a chain is refused (the bound is inclusive).',
  // Errors
  'errors.omit-code': 'Blanc error envelopes lack their `code` field.',
  'errors.no-trace-id': 'Responses lack the `x-trace-id` header.',
  'errors.trace-id-mismatch': "An error body's `traceId` differs from the response's `x-trace-id` header.",
  'errors.alps-as-blanc': 'Alps errors are answered in the blanc envelope.',
  'errors.5xx-on-malformed-json': 'A body that is not valid JSON answers 500 INTERNAL_ERROR instead of 400.',
  'errors.5xx-on-oversized-body': 'A body over the size limit answers 500 INTERNAL_ERROR instead of 413.',
  // Bad input
  'input.accept-negative-amount': 'A negative amount passes validation.',
  'input.accept-over-uint256': 'An amount above 2^256 - 1 passes validation.',
  'input.5xx-on-wrong-types': 'A field of the wrong type answers 500 INTERNAL_ERROR instead of 400.',
  // Deposit processor
  'deposits.setup-ignores-null':
    '`null` in POST /deposit-processor/setup keeps the field instead of clearing it.',
  'deposits.ignore-whitelist':
    'Deposits are checked without the deposit whitelist (no TOKEN-3, no BALANCE-3).',
  'deposits.wrong-error-code':
    'A rejected deposit reports the wrong error code (TOKEN-3 as BALANCE-3, BALANCE-3 as TOKEN-3, BRIDGE-5 as BALANCE-3).',
  // Webhooks
  'webhooks.wrong-secret': 'Webhooks are signed with a key other than the configured secret.',
  'webhooks.sign-without-secret':
    'Webhooks carry an `X-Webhook-Signature` even when no secret is configured.',
  'webhooks.drop-signature': 'Webhooks carry no `X-Webhook-Signature` even when a secret is configured.',
  // Quotes, intents, settlement and withdrawals
  'quotes.no-404-after-expiry':
    'A blanc quote never expires: a submit after its lifetime is accepted instead of 404.',
  'quotes.malformed-field': 'Blanc routes lack their `intentId` (the response breaks the spec schema).',
  'intents.accept-duplicate':
    'A second submit of an already submitted blanc intent answers 201 instead of 404.',
  'intents.alps-accept-duplicate':
    'A second submission of the same alps intentOp answers 201 with the first id instead of 409.',
  'intents.accept-tampered':
    'An alps intentOp is accepted without checking its server signature, signatures and contents.',
  'intents.settle-refused-tampered':
    'An alps intentOp changed after signing is refused (4xx) but settled all the same: its fill delivers what the changed mandate says.',
  'intents.skip-claims':
    'The relayer fills but never claims on the origin chains, so an intent never reaches COMPLETED.',
  'intents.refund-sponsor-one-unit':
    "After each origin claim the relayer sends the sponsor one unit of the claimed token back: the sender's funds move by one unit other than the quoted input.",
  'withdrawals.bad-allocator-signature':
    'Withdrawals answer allocatorData that the Compact refuses (one byte of the signature changed).',
  // Packs that catch what matters (issue 29): each as one mutant of the simulator would behave.
  'quotes.access-list-tokens-inverted':
    'accountAccessList token matching is inverted: its allow lists (tokens, chainTokens) allow everything, its exclude lists exclude everything.',
  'quotes.access-list-ignore-chains': 'accountAccessList `chainIds` (allowed and excluded) are ignored.',
  'quotes.routes-most-expensive-first': 'Blanc routes are answered most expensive first.',
  'quotes.fee-total-mismatch':
    'Fee totals are not the sum of their parts: alps `fee` and `totalFeeUSD` are one unit (0.01 USD) too high (blanc `totalUsd` too).',
  'quotes.negative-fee-part':
    'A fee part is negative (the swap fee is -1 unit, -0.01 USD), its total lowered to match.',
  'quotes.expires-before-fill-deadline': 'An alps intentOp `expires` one second before its fill deadline.',
  'quotes.deadlines-in-the-past': "An alps intentOp's `expires` and fill deadlines lie two days in the past.",
  'quotes.drop-destination-executions':
    '`destinationExecutions` are dropped from the quote: the intent settles without running them.',
  'quotes.drop-pre-claim-executions': '`preClaimExecutions` are dropped from the quote (no preClaimOps).',
  'quotes.balance-from-allowance':
    "An account's wallet balance is read as its Permit2 allowance, so an allowance above the balance counts as funds.",
  'quotes.invert-has-fulfilled': "On an underfunded alps quote every token's `hasFulfilled` is inverted.",
  'quotes.shortfall-on-covered':
    'On an underfunded alps quote every token reports a shortfall, the covered ones too (`hasFulfilled` false, nothing available).',
  'intents.skip-signature-check':
    'Submissions are accepted without checking the origin and destination signatures (the server signature is still checked).',
  'withdrawals.refuse-exact-balance':
    'A withdrawal of exactly the locked balance is refused (the bound is treated as exclusive).',
  'withdrawals.sign-over-balance': 'A withdrawal above the locked balance is signed instead of refused.',
  'deposits.refuse-equal-bounds':
    'A deposit whitelist entry with `minAmount` equal to `maxAmount` is refused, though both bounds are inclusive.',
} as const satisfies Record<string, string>

/** A fault of {@link FAULT_CATALOGUE}. */
export type FaultName = keyof typeof FAULT_CATALOGUE

/** The fault names of the catalogue, in catalogue order. */
export const FAULT_NAMES = Object.keys(FAULT_CATALOGUE) as FaultName[]

/** Thrown when a fault name is not in {@link FAULT_CATALOGUE}. */
export class UnknownFaultError extends BaseError {
  override name = 'Faults.UnknownFaultError'
  readonly unknown: string[]

  constructor(unknown: string[]) {
    super(`Unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`, {
      metaMessages: [`Known faults: ${FAULT_NAMES.join(', ')}.`],
      data: { unknown, known: FAULT_NAMES },
    })
    this.unknown = unknown
  }
}

/** The registry of enabled faults; see {@link createFaults}. */
export type Faults = {
  /** Enables the named faults; throws {@link UnknownFaultError} (enabling none) if any is unknown. */
  enable(names: readonly string[]): void
  /** Disables the named faults; throws {@link UnknownFaultError} (disabling none) if any is unknown. */
  disable(names: readonly string[]): void
  /** Disables every fault. */
  clear(): void
  /** Whether the fault is enabled. */
  has(name: FaultName): boolean
  /** The enabled faults, in catalogue order. */
  list(): FaultName[]
}

/**
 * Creates an empty fault registry.
 *
 * @example
 * const faults = createFaults()
 * faults.enable(['errors.no-trace-id'])
 * faults.has('errors.no-trace-id') // true
 */
export function createFaults(): Faults {
  const enabled = new Set<FaultName>()
  const check = (names: readonly string[]): FaultName[] => {
    const unknown = names.filter((name) => !(name in FAULT_CATALOGUE))
    if (unknown.length > 0) throw new UnknownFaultError(unknown)
    return names as FaultName[]
  }
  return {
    enable(names) {
      for (const name of check(names)) enabled.add(name)
    },
    disable(names) {
      for (const name of check(names)) enabled.delete(name)
    },
    clear() {
      enabled.clear()
    },
    has: (name) => enabled.size > 0 && enabled.has(name),
    list: () => FAULT_NAMES.filter((name) => enabled.has(name)),
  }
}
