import type { DepositProcessor, DepositProcessorDecorators } from '../deposits/createDepositProcessor'
import { InvalidConfigurationError } from '../deposits/errors'
import type { DepositErrorCode } from '../deposits/rules'
import type { Faults } from '../faults/faults'

/** The code a rejected deposit reports under `deposits.wrong-error-code`. */
const WRONG_ERROR_CODE: Record<DepositErrorCode, DepositErrorCode> = {
  'TOKEN-3': 'BALANCE-3',
  'BALANCE-3': 'TOKEN-3',
  'BRIDGE-5': 'BALANCE-3',
}

/**
 * Decorators of the deposit processor's parts with the `deposits.*` and `webhooks.*` faults: the
 * rules without the whitelist (`deposits.ignore-whitelist`) or with the wrong error code
 * (`deposits.wrong-error-code`); webhooks signed with another key (`webhooks.wrong-secret`),
 * without a secret (`webhooks.sign-without-secret`) or not at all (`webhooks.drop-signature`).
 *
 * @example
 * createDepositProcessor({ chains, prices, clock, events, decorate: depositFaultDecorators(faults) })
 */
export function depositFaultDecorators(faults: Pick<Faults, 'has'>): DepositProcessorDecorators {
  return {
    evaluate: (evaluate) => (parameters) => {
      const verdict = evaluate(
        faults.has('deposits.ignore-whitelist')
          ? { ...parameters, config: { ...parameters.config, depositWhitelist: {} } }
          : parameters,
      )
      if (verdict.accepted || !faults.has('deposits.wrong-error-code')) return verdict
      return { ...verdict, errorCode: WRONG_ERROR_CODE[verdict.errorCode] }
    },
    webhookTarget: (resolve) => (tenantId) => {
      const target = resolve(tenantId)
      if (!target) return undefined
      let secret = target.secret
      if (secret && faults.has('webhooks.wrong-secret')) secret = `${secret}-wrong`
      if (!secret && faults.has('webhooks.sign-without-secret')) secret = 'intent-devnet-fault'
      if (faults.has('webhooks.drop-signature')) secret = null
      return { ...target, secret }
    },
  }
}

/**
 * The deposit processor with `deposits.setup-ignores-null` (a null in a setup keeps the field
 * instead of clearing it) and `deposits.refuse-equal-bounds` (a whitelist entry whose
 * `minAmount` equals its `maxAmount` is refused as an invalid configuration) around it.
 *
 * @example
 * const processor = withDepositFaults(createDepositProcessor(parameters), faults)
 */
export function withDepositFaults(
  processor: DepositProcessor,
  faults: Pick<Faults, 'has'>,
): DepositProcessor {
  return {
    ...processor,
    async setup(tenant, params) {
      if (faults.has('deposits.refuse-equal-bounds'))
        for (const [chain, entries] of Object.entries(params.depositWhitelist ?? {}))
          for (const [i, entry] of (entries ?? []).entries())
            if (entry.minAmount !== undefined && entry.minAmount === entry.maxAmount)
              throw new InvalidConfigurationError(
                `depositWhitelist.${chain}[${i}]`,
                'minAmount must be below maxAmount.',
              )
      return processor.setup(
        tenant,
        faults.has('deposits.setup-ignores-null')
          ? Object.fromEntries(Object.entries(params).filter(([, value]) => value !== null))
          : params,
      )
    },
  }
}
