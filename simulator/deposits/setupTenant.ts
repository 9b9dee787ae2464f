import type { DepositProcessorParams, DepositProcessorSetupResponse } from '../../spec'
import type { DepositContext } from './types'

/**
 * Applies a partial configuration update of a tenant (spec: POST /deposit-processor/setup) and
 * stores it.
 */
export function setupTenant(
  context: DepositContext,
  tenantId: string,
  params: DepositProcessorParams,
): DepositProcessorSetupResponse {
  context.store.config.apply(tenantId, params)
  context.store.save()
  return { message: 'Deposit processor configuration updated.' }
}
