import { z } from 'zod'
import { Hex } from './common'

/**
 * One EIP-712 typed-data object, to be signed exactly as given (spec: Authentication §4;
 * Version blanc route shape).
 */
export const TypedData = z.looseObject({
  domain: z.record(z.string(), z.unknown()),
  types: z.record(z.string(), z.array(z.looseObject({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  message: z.record(z.string(), z.unknown()),
})
export type TypedData = z.infer<typeof TypedData>

/**
 * A fee line of a blanc route's `cost.fees.breakdown`, with its USD value (spec: Version blanc
 * route shape: "with a `usd` value", its type not shown: a number, or a decimal string).
 */
const FeeLine = z.looseObject({ usd: z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)]) })

/** A blanc route: one way to fund the intent (spec: Version blanc route shape). */
export const BlancRoute = z.looseObject({
  intentId: z.string().min(1),
  cost: z.looseObject({
    /** "items have an `amount`", its type not shown: an integer string (the public service) or a number. */
    input: z.array(z.looseObject({ amount: z.union([z.string(), z.number()]) })),
    output: z.unknown(),
    fees: z.looseObject({
      breakdown: z.looseObject({ gas: FeeLine }).catchall(z.unknown()),
    }),
  }),
  /** Unix seconds; the public blanc API returns it (facts §1), a number (an integer string allowed: the spec does not show it). */
  expiresAt: z.union([z.number().int(), z.string().regex(/^\d+$/)]).optional(),
  signData: z.looseObject({
    origin: z.array(TypedData),
    destination: TypedData,
    targetExecution: TypedData.optional(),
  }),
})
export type BlancRoute = z.infer<typeof BlancRoute>

/** Route response of version blanc: routes sorted by cost, cheapest first (spec: Version blanc route shape; Versioning §6). */
export const BlancRouteResponse = z.looseObject({ routes: z.array(BlancRoute).min(1) })
export type BlancRouteResponse = z.infer<typeof BlancRouteResponse>

/** The caller's signatures over a route's signData (spec: Endpoints › POST /intents/{intentId}/submit). */
export const BlancSignatures = z.object({
  origin: z.array(Hex).min(1),
  destination: Hex,
  targetExecution: Hex.optional(),
})
export type BlancSignatures = z.infer<typeof BlancSignatures>

/** Body of POST /intents/{intentId}/submit (spec: Endpoints › POST /intents/{intentId}/submit). */
export const BlancSubmitRequest = z.object({
  signatures: BlancSignatures,
  options: z.object({ dryRun: z.boolean().optional() }).optional(),
})
export type BlancSubmitRequest = z.infer<typeof BlancSubmitRequest>

/** Body of the public alias POST /intents (facts §1): the intent id travels in the body. */
export const BlancPublicSubmitRequest = BlancSubmitRequest.extend({ intentId: z.string().min(1) })
export type BlancPublicSubmitRequest = z.infer<typeof BlancPublicSubmitRequest>

/** Answer of a blanc submit (spec: not shown; facts §1: 201 `{intentId}`). */
export const BlancSubmitResponse = z.looseObject({
  intentId: z.string(),
  status: z.string().optional(),
  dryRun: z.boolean().optional(),
})
export type BlancSubmitResponse = z.infer<typeof BlancSubmitResponse>
