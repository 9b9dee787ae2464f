import type { DepositProcessorParams, DepositProcessorSetupResponse } from '../../spec'
import type { DepositContext } from './types'

/**
 * Applies a partial configuration update of a tenant (spec: POST /deposit-processor/setup) and
 * stores it. Under the fault `deposits.setup-ignores-null` a null keeps the field instead of clearing it.
 */
export function setupTenant(
  context: DepositContext,
  tenantId: string,
  params: DepositProcessorParams,
): DepositProcessorSetupResponse {
  const applied = context.faults.has('deposits.setup-ignores-null')
    ? Object.fromEntries(Object.entries(params).filter(([, value]) => value !== null))
    : params
  context.store.config.apply(tenantId, applied)
  context.store.save()
  return { message: 'Deposit processor configuration updated.' }
}
