import { type Address, getAddress, isAddress } from 'viem'
import type { DepositProcessorParams, DepositWhitelistEntry, SponsorshipEntry } from '../../spec'
import { AccountTakenError, InvalidConfigurationError } from './errors'
import type { TokenDirectory } from './tokenDirectory'

/** The default of `maxPriceDeviationBps` (spec: Limits). */
export const DEFAULT_MAX_PRICE_DEVIATION_BPS = 200

/** One tenant's configuration, as stored (the secret in clear). */
export type DepositProcessorConfiguration = {
  webhookUrl: string | null
  webhookSecret: string | null
  sponsorship: Record<string, SponsorshipEntry>
  depositWhitelist: Record<string, { token: Address; minAmount?: string; maxAmount?: string }[]>
  maxPriceDeviationBps: number | null
}

/** Where an account's deposits go. */
export type Registration = {
  tenant: string
  account: Address
  targetChainId: number
  /** The token deposits are bridged into; null: the deposited token's counterpart on the target chain. */
  targetToken: Address | null
  registeredAt: string
}

/** The serialisable content of a {@link ConfigStore}. */
export type ConfigStoreState = {
  configs: Record<string, DepositProcessorConfiguration>
  registrations: Registration[]
}

/** Per-tenant configuration and registrations. */
export type ConfigStore = ReturnType<typeof createConfigStore>

function emptyConfiguration(): DepositProcessorConfiguration {
  return {
    webhookUrl: null,
    webhookSecret: null,
    sponsorship: {},
    depositWhitelist: {},
    maxPriceDeviationBps: null,
  }
}

/** Masks a secret for reading back: never more than its last 4 characters, and only for long secrets. */
export function maskSecret(secret: string | null): string | null {
  if (secret === null) return null
  return secret.length >= 16 ? `********${secret.slice(-4)}` : '********'
}

function chainOfKey(key: string, path: string, tokens: TokenDirectory): number {
  const chainId = Number(key.slice('eip155:'.length))
  if (!/^eip155:\d+$/.test(key) || !tokens.chainIds().includes(chainId))
    throw new InvalidConfigurationError(
      path,
      `chain ${key} is not a chain of this devnet (known: ${tokens
        .chainIds()
        .map((id) => `eip155:${id}`)
        .join(', ')}).`,
    )
  return chainId
}

/**
 * Creates the configuration store: one configuration and one set of registered accounts per
 * tenant (API key); no tenant reads or changes another's.
 */
export function createConfigStore(parameters: {
  tokens: TokenDirectory
  state?: ConfigStoreState | undefined
}) {
  const { tokens } = parameters
  const configs = new Map<string, DepositProcessorConfiguration>(
    Object.entries(parameters.state?.configs ?? {}),
  )
  const registrations = new Map<string, Registration>(
    (parameters.state?.registrations ?? []).map((r) => [r.account.toLowerCase(), r]),
  )

  const config = (tenant: string): DepositProcessorConfiguration =>
    configs.get(tenant) ?? emptyConfiguration()

  return {
    /** The tenant's configuration (the secret in clear: for the webhook sender). */
    config,

    /** The configuration as `GET /deposit-processor/setup` answers it: defaults applied, secret masked. */
    read(tenant: string) {
      const current = config(tenant)
      return {
        webhookUrl: current.webhookUrl,
        webhookSecret: maskSecret(current.webhookSecret),
        sponsorship: structuredClone(current.sponsorship),
        depositWhitelist: structuredClone(current.depositWhitelist),
        maxPriceDeviationBps: current.maxPriceDeviationBps ?? DEFAULT_MAX_PRICE_DEVIATION_BPS,
        accounts: [...registrations.values()]
          .filter((r) => r.tenant === tenant)
          .map(({ account, targetChainId, targetToken }) => ({ account, targetChainId, targetToken })),
      }
    },

    /**
     * Applies a partial update exactly as the spec says: omitted fields keep their value, `null`
     * clears webhookUrl, webhookSecret and maxPriceDeviationBps, `{}` clears sponsorship and
     * depositWhitelist. Everything is checked before anything changes.
     */
    apply(tenant: string, params: DepositProcessorParams): DepositProcessorConfiguration {
      const next = structuredClone(config(tenant))
      if (params.webhookUrl !== undefined) next.webhookUrl = params.webhookUrl
      if (params.webhookSecret !== undefined) next.webhookSecret = params.webhookSecret
      if (params.maxPriceDeviationBps !== undefined) next.maxPriceDeviationBps = params.maxPriceDeviationBps
      if (params.sponsorship !== undefined) {
        for (const key of Object.keys(params.sponsorship)) chainOfKey(key, `sponsorship.${key}`, tokens)
        next.sponsorship = structuredClone(params.sponsorship)
      }
      if (params.depositWhitelist !== undefined) {
        const whitelist: DepositProcessorConfiguration['depositWhitelist'] = {}
        for (const [key, entries] of Object.entries(params.depositWhitelist)) {
          const chainId = chainOfKey(key, `depositWhitelist.${key}`, tokens)
          const seen = new Set<string>()
          whitelist[key] = entries.map((entry: DepositWhitelistEntry, index) => {
            const path = `depositWhitelist.${key}[${index}].token`
            const token = tokens.token(chainId, entry.token)
            if (!token)
              throw new InvalidConfigurationError(
                path,
                `${entry.token} is not a token this devnet knows on chain ${chainId} (the zero address stands for native ether).`,
              )
            if (seen.has(token.address))
              throw new InvalidConfigurationError(path, `${entry.token} is listed twice.`)
            seen.add(token.address)
            if (
              entry.minAmount !== undefined &&
              entry.maxAmount !== undefined &&
              BigInt(entry.minAmount) > BigInt(entry.maxAmount)
            )
              throw new InvalidConfigurationError(path, 'minAmount must not exceed maxAmount.')
            return {
              token: getAddress(token.address),
              ...(entry.minAmount === undefined ? {} : { minAmount: entry.minAmount }),
              ...(entry.maxAmount === undefined ? {} : { maxAmount: entry.maxAmount }),
            }
          })
        }
        next.depositWhitelist = whitelist
      }
      configs.set(tenant, next)
      return next
    },

    /** Registers (or re-registers) an account of `tenant`; an account another tenant holds is refused. */
    register(
      tenant: string,
      request: { account: string; targetChainId: number | string; targetToken?: string | undefined },
      now: string,
    ): Registration {
      const account = getAddress(request.account)
      const owner = registrations.get(account.toLowerCase())
      if (owner && owner.tenant !== tenant) throw new AccountTakenError(account)
      const targetChainId = Number(request.targetChainId)
      if (!tokens.chainIds().includes(targetChainId))
        throw new InvalidConfigurationError(
          'targetChainId',
          `chain ${request.targetChainId} is not a chain of this devnet (known: ${tokens.chainIds().join(', ')}).`,
        )
      let targetToken: Address | null = null
      if (request.targetToken !== undefined) {
        const token = isAddress(request.targetToken, { strict: false })
          ? tokens.token(targetChainId, request.targetToken)
          : tokens.bySymbol(targetChainId, request.targetToken)
        if (!token)
          throw new InvalidConfigurationError(
            'targetToken',
            `${request.targetToken} is not a token this devnet knows on chain ${targetChainId}.`,
          )
        targetToken = getAddress(token.address)
      }
      const registration: Registration = { tenant, account, targetChainId, targetToken, registeredAt: now }
      registrations.set(account.toLowerCase(), registration)
      return registration
    },

    /** The registration of `account`, whichever tenant holds it. */
    registration: (account: string): Registration | undefined => registrations.get(account.toLowerCase()),

    /** Every registered account. */
    accounts: (): Address[] => [...registrations.values()].map((r) => r.account),

    /** The serialisable state. */
    snapshot: (): ConfigStoreState => ({
      configs: Object.fromEntries(configs),
      registrations: [...registrations.values()],
    }),
  }
}
