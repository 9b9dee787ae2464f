import { BaseError } from './util/BaseError'

/**
 * The faults the simulator can inject, each making it break exactly one rule of the contract,
 * so that a conformance check can prove it catches that violation. Name → one-line description.
 */
export const FAULT_CATALOGUE = {
  'version.missing-as-blanc': 'A request without `x-api-version` is served as 2026-04.blanc instead of alps.',
  'version.accept-unknown':
    'An unknown but well-formed `x-api-version` is served as alps instead of rejected.',
  'auth.accept-missing-key': 'A request without `x-api-key` is accepted (a wrong key is still rejected).',
  'limits.accept-11-ops': 'preClaimExecutions may carry more than 10 operations on a chain.',
  'limits.accept-6-chains': 'preClaimExecutions may name more than 5 chains.',
  'errors.omit-code': 'Blanc error envelopes lack their `code` field.',
  'errors.no-trace-id': 'Responses lack the `x-trace-id` header.',
  'errors.5xx-on-malformed-json': 'A body that is not valid JSON answers 500 INTERNAL_ERROR instead of 400.',
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
