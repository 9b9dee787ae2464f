import { z } from 'zod'

/** Error body of version alps (spec: Errors, format not shown; facts §1). */
export const AlpsErrorEnvelope = z.looseObject({
  errors: z.array(z.looseObject({ message: z.string().min(1), context: z.unknown().optional() })).min(1),
  traceId: z.string().min(1),
})
export type AlpsErrorEnvelope = z.infer<typeof AlpsErrorEnvelope>

/** Error body of version blanc (spec: Errors, format not shown; facts §1). */
export const BlancErrorEnvelope = z.looseObject({
  code: z.string().regex(/^[A-Z][A-Z0-9_-]*$/),
  message: z.string().min(1),
  traceId: z.string().min(1),
  details: z.unknown().optional(),
})
export type BlancErrorEnvelope = z.infer<typeof BlancErrorEnvelope>
