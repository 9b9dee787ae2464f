import { createHash } from 'node:crypto'

/**
 * The stored id of a tenant: a digest of its API key, so the state dir never holds keys.
 *
 * @example
 * tenantIdOf('devnet-key') // 32 hex characters
 */
export function tenantIdOf(tenant: string): string {
  return createHash('sha256').update(`deposit-processor:${tenant}`).digest('hex').slice(0, 32)
}
