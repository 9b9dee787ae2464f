import type { SignedIntent } from '../intents/types'

/** A promise's outcome, kept so that it is read later, or never, without an unhandled rejection. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown }

/** Starts `task` now and keeps its outcome (see {@link Outcome}). */
export function startEarly<T>(task: () => Promise<T>): Promise<Outcome<T>> {
  return task().then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  )
}

/** The value of an outcome, or its error thrown. */
export function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw outcome.error
  return outcome.value
}

/**
 * Whether a step on `chainId` has anything to do before its simulation: setup calls (the
 * account's deployment, sendSetupCalls) or an EIP-7702 authorization to carry (getAuthorizations).
 * When not, the simulation depends on nothing the step sends first, so it may be read side by
 * side with the search for the step already mined (findMined): one round trip on the devnet's
 * batching transport instead of two, its answer used only when nothing was mined.
 */
export function hasChainSetup(signed: SignedIntent, chainId: number): boolean {
  return (
    signed.setupOps.length > 0 ||
    (signed.intentOp.signedAuthorizations ?? []).some((a) => a.chainId === chainId || a.chainId === 0)
  )
}
