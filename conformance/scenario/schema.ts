import { z } from 'zod'
import { BaseError } from '../../spec/BaseError'

/**
 * The scenario file format (`scenarios/<pack>/*.yaml`), as zod schemas. A scenario is data: a
 * title, the spec section it enforces, what it requires of the target and ordered steps. See
 * `docs/conformance.md` for the format with examples.
 */

export {
  HttpExpect,
  HttpExpectAlternative,
  HttpStep,
  Matcher,
  StatusExpectation,
  Version,
} from './httpStepSchema'

import { ChainStep, Signer } from './chainStepSchema'
import { HttpStep, Matcher, Version } from './httpStepSchema'

export { ChainStep } from './chainStepSchema'

export const ClockStep = z.strictObject({
  name: z.string().optional(),
  clock: z
    .strictObject({
      /** Seconds to advance (a number or `${var}`); or give `until`. */
      advance: z.union([z.number().nonnegative(), z.string()]).optional(),
      /** Advance until just past this unix time (e.g. a captured `expiresAt`). */
      until: z.union([z.number().nonnegative(), z.string()]).optional(),
      /**
       * Without the control API: wait the time out for real when it is at most `maxWaitSeconds`,
       * else the scenario is not applicable.
       */
      fallback: z.enum(['wait', 'not-applicable']).default('not-applicable'),
      maxWaitSeconds: z.number().nonnegative().default(30),
    })
    .refine((c) => (c.advance === undefined) !== (c.until === undefined), {
      message: 'give either advance or until',
    }),
})

export const FaultStep = z.strictObject({
  name: z.string().optional(),
  fault: z
    .strictObject({ enable: z.array(z.string()).optional(), disable: z.array(z.string()).optional() })
    .refine((f) => (f.enable?.length ?? 0) + (f.disable?.length ?? 0) > 0, { message: 'name a fault' }),
})

export const WaitStep = z.strictObject({ name: z.string().optional(), wait: z.number().int().nonnegative() })

/**
 * Signs EIP-712 typed data (e.g. a blanc route's `signData.origin[i]` / `destination`) exactly as
 * given with an account's key, and captures the signature (an array of them for an array).
 */
export const SignStep = z.strictObject({
  name: z.string().optional(),
  sign: z.strictObject({
    /** A typed-data object `{domain, types, primaryType, message}`, or an array of them; usually `${captured}`. */
    typedData: z.unknown(),
    /** A funded account of the manifest by index, or a `0x` private key / `${var}`. */
    account: Signer.default(0),
    /** `account` is a Nexus smart account's owner key: each signature is 20 zero bytes (the default validator) then its ECDSA. */
    smartAccount: z.literal(true).optional(),
  }),
  captureAs: z.string().regex(/^[A-Za-z_][\w]*$/),
})

/**
 * Signs an alps `intentOp` as an integrator's client does (the SDK 1.x): builds the EIP-712 typed
 * data from its fields (per element by `fundingMethod`: PERMIT2 → PermitBatchWitnessTransferFrom,
 * COMPACT → MultichainCompact; SingleChainOps for destination ops) and captures the submitted
 * intent operation: the intentOp plus `originSignatures[]` and `destinationSignature`.
 */
export const SignIntentOpStep = z.strictObject({
  name: z.string().optional(),
  signIntentOp: z.strictObject({
    /** The route response's `intentOp`, usually `${captured}`. */
    intentOp: z.unknown(),
    /** The sponsor: a funded account of the manifest by index, or a `0x` private key / `${var}`. */
    account: Signer.default(0),
    /** Sign although `account` is not the intentOp's sponsor: a wrong signer the target must refuse. */
    notSponsor: z.literal(true).optional(),
    /**
     * The sponsor is a Nexus smart account (a `smartAccount` chain step's) and `account` an owner
     * key: each signature is 20 zero bytes (the default validator) then the key's ECDSA.
     */
    smartAccount: z.literal(true).optional(),
  }),
  captureAs: z
    .string()
    .regex(/^[A-Za-z_][\w]*$/)
    .default('signedIntentOp'),
})

/**
 * Copies a value with some fields replaced (e.g. a signed intentOp with a changed amount, to
 * check that tampering is refused) and captures the copy; the original is left as it was.
 */
export const PatchStep = z.strictObject({
  name: z.string().optional(),
  patch: z.strictObject({
    /** The value to copy, usually `${captured}`. */
    value: z.unknown(),
    /** JSON pointer (`/elements/0/mandate/tokenOut/0/1`) → new value; its parent must exist (an object may get a new field). */
    set: z.record(z.string().startsWith('/'), z.unknown()).refine((s) => Object.keys(s).length > 0, {
      message: 'set at least one field',
    }),
  }),
  captureAs: z.string().regex(/^[A-Za-z_][\w]*$/),
})

export const WebhookStep = z.strictObject({
  name: z.string().optional(),
  webhook: z.strictObject({
    type: z.string(),
    withinSeconds: z.number().positive().default(30),
    /**
     * `valid`: `X-Webhook-Signature: sha256=<hex>` matches HMAC-SHA256(secret, raw body) (the public
     * service's encoding); `present`: the header is there (the spec's words: the signed content and
     * its encoding are not shown), and not `sha256=<hex>` of another HMAC; `absent`: no header; `invalid`: a header that does not match (a
     * recorded session of a target that signed wrongly).
     */
    signature: z.enum(['valid', 'present', 'absent', 'invalid']),
    /**
     * Picks the event: the first of `type` whose body also matches these (e.g. a deposit amount;
     * `**` for a value anywhere in the body). An event is of `type` when its `/type` says so or,
     * without a `/type`, when the body names the type anywhere (the spec does not show the payload).
     */
    where: z.record(z.string(), Matcher).optional(),
    /**
     * Event types that decide the other way (e.g. `bridge-complete` for an awaited
     * `bridge-failed`): one of them matching `where` that arrives first fails the step at once
     * instead of after `withinSeconds`. Only where `where` picks a single deposit.
     */
    contradictedBy: z.array(z.string()).optional(),
    body: z.record(z.string(), Matcher).optional(),
    spec: z.string().optional(),
    /** The step's grade when it differs from the scenario's. */
    level: z.enum(['MUST', 'SHOULD']).optional(),
    /**
     * What the public service does beyond the spec's words, checked on the same event at SHOULD
     * (checks named `should webhook …`): its signature encoding, where its payload keeps a field.
     */
    should: z
      .strictObject({
        signature: z.enum(['valid', 'present', 'absent', 'invalid']).optional(),
        body: z.record(z.string(), Matcher).optional(),
        spec: z.string().optional(),
      })
      .optional(),
  }),
  capture: z.record(z.string(), z.string()).optional(),
})

const STEP_KINDS = {
  http: HttpStep,
  chain: ChainStep,
  clock: ClockStep,
  fault: FaultStep,
  wait: WaitStep,
  webhook: WebhookStep,
  sign: SignStep,
  signIntentOp: SignIntentOpStep,
  patch: PatchStep,
} as const

/** The kinds of step, each named by the one key a step of that kind has (`http`, `chain`, …). */
export type StepKind = keyof typeof STEP_KINDS
/** A step of one kind, e.g. `StepOf<'http'>` is an {@link HttpStep}. */
export type StepOf<kind extends StepKind> = z.infer<(typeof STEP_KINDS)[kind]>
export type Step = StepOf<StepKind>

const STEP_KIND_NAMES = Object.keys(STEP_KINDS) as StepKind[]

/** Thrown when a value given as a parsed step has no step kind's key. */
export class StepKindError extends BaseError {
  override name = 'Conformance.StepKindError'
}

/**
 * The kind of a step: the key of {@link STEP_KINDS} it has (a parsed step has exactly one).
 *
 * @example
 * stepKind({ wait: 100 }) // 'wait'
 */
export function stepKind(step: Step): StepKind {
  const kind = STEP_KIND_NAMES.find((name) => name in step)
  if (kind === undefined)
    throw new StepKindError(`The value is not a step: ${JSON.stringify(step)?.slice(0, 200)}.`, {
      metaMessages: [`A step has one of: ${STEP_KIND_NAMES.join(', ')}.`],
    })
  return kind
}

/**
 * One step: the key naming its kind (`http`, `chain`, …) picks its schema, so an error names the
 * field of that kind instead of listing why every kind of a union failed.
 */
export const Step = z.unknown().transform((value, ctx): Step => {
  const kinds = STEP_KIND_NAMES
  const present =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? kinds.filter((kind) => kind in value)
      : []
  const kind = present[0]
  if (kind === undefined || present.length > 1) {
    ctx.addIssue({
      code: 'custom',
      message:
        present.length > 1
          ? `a step has exactly one kind, found ${present.join(' and ')}`
          : `a step is a mapping with one of: ${kinds.join(', ')}`,
    })
    return z.NEVER
  }
  const result = STEP_KINDS[kind].safeParse(value)
  if (result.success) return result.data
  for (const issue of result.error.issues)
    ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path })
  return z.NEVER
})
export type ClockStep = z.infer<typeof ClockStep>
export type FaultStep = z.infer<typeof FaultStep>
export type WaitStep = z.infer<typeof WaitStep>
export type WebhookStep = z.infer<typeof WebhookStep>
export type SignStep = z.infer<typeof SignStep>
export type SignIntentOpStep = z.infer<typeof SignIntentOpStep>
export type PatchStep = z.infer<typeof PatchStep>

/**
 * What a scenario needs of the target: `devnet` (the `/_devnet/` endpoints of an intent-devnet),
 * `control-api` (its manifest and clock), `faults`, `chains`, `webhooks` (it can reach the
 * runner's loopback receiver), and domain features a target may not have built yet: `quotes`,
 * `settlement`, `withdrawals`, `deposits`.
 */
export const Requirement = z.enum([
  'devnet',
  'control-api',
  'faults',
  'chains',
  'webhooks',
  'quotes',
  'settlement',
  'withdrawals',
  'deposits',
])
export type Requirement = z.infer<typeof Requirement>

export const Scenario = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, 'lower-case letters, digits, dots and dashes'),
  title: z.string().min(1),
  /** The spec section the scenario enforces, e.g. "Versioning §2". */
  spec: z.string().min(1),
  /**
   * MUST: the spec states the rule (a failure fails certification). SHOULD: the public service
   * does it and the spec is silent; a failure fails only a `--strict` run.
   */
  level: z.enum(['MUST', 'SHOULD']).default('MUST'),
  requires: z
    .strictObject({
      capabilities: z.array(Requirement).default([]),
      /** The scenario speaks this version (the default of its steps), and needs the target to serve it. */
      version: Version.optional(),
    })
    .default({ capabilities: [] }),
  steps: z.array(Step).min(1),
  /**
   * Steps run when the scenario ends, whether it passed, failed or stopped early (e.g. restore
   * the prices a scenario changed). Their failures count like any other check.
   */
  cleanup: z.array(Step).default([]),
})
export type Scenario = z.infer<typeof Scenario>
