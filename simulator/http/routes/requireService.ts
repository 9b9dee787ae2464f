import type { FastifyRequest } from 'fastify'
import { ApiError } from '../errorCodes'

/** Version alps, and the routes that serve only it. */
export const ALPS_ONLY = ['2026-01.alps'] as const
/** Version blanc, and the routes that serve only it. */
export const BLANC_ONLY = ['2026-04.blanc'] as const

/**
 * Returns the domain service a route delegates to, or throws 501 NOT_IMPLEMENTED when this
 * devnet does not run it yet. Call it after validation, so a 501 means "valid, not served".
 */
export function requireService<service>(
  service: service | undefined,
  name: string,
  request: FastifyRequest,
): service {
  if (service === undefined)
    throw new ApiError(
      'NOT_IMPLEMENTED',
      `${request.method} ${request.routeOptions.url} is routed and the request is valid, but the ${name} service is not running in this devnet yet.`,
      { data: { service: name } },
    )
  return service
}
