import type { DepositProcessorRegisterRequest, DepositProcessorRegisterResponse } from '../../spec'
import type { DepositStore } from './createDepositStore'

/**
 * Registers an account of a tenant (facts §1: POST /deposit-processor/register): its deposits on
 * any chain are bridged to `targetChainId`. Throws `DepositProcessor.AccountTakenError` for an
 * account another tenant holds, `DepositProcessor.InvalidConfigurationError` for an unknown chain or token.
 */
export function registerAccount(
  store: DepositStore,
  tenantId: string,
  request: DepositProcessorRegisterRequest,
): DepositProcessorRegisterResponse {
  const registration = store.config.register(tenantId, request, store.isoNow())
  store.save()
  return {
    message: 'Account registered.',
    account: registration.account,
    targetChainId: registration.targetChainId,
    targetToken: registration.targetToken,
  }
}
