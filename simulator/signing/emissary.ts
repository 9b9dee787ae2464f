import { randomBytes } from 'node:crypto'
import { type Address, getAddress, type Hex } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { addresses } from '../../contracts/addresses'
import { EMISSARY_ENABLE_TYPES, type EmissaryConfig } from '../../spec'

export { EMISSARY_ENABLE_TYPES }

/**
 * The IntentEmissary's EIP-712 domain: no chainId, so one pair of signatures enables the same
 * config on every chain (the emissary sits at one address everywhere; docs/emissary.md).
 */
export const emissaryDomain = {
  name: 'IntentEmissary',
  version: '1',
  verifyingContract: addresses.emissary,
} as const

/** The message of `EmissaryEnable`, what both the allocator and the account sign. */
export type EmissaryEnableMessage = {
  account: Address
  lockTag: Hex
  validator: Address
  allocator: Address
  nonce: bigint
  expires: bigint
}

/**
 * The EIP-712 typed data of an `EmissaryEnable`, ready for viem's `signTypedData`/`hashTypedData`.
 *
 * @example
 * const userSig = await owner.signTypedData(emissaryEnableTypedData(message))
 */
export function emissaryEnableTypedData(message: EmissaryEnableMessage) {
  return {
    domain: emissaryDomain,
    types: EMISSARY_ENABLE_TYPES,
    primaryType: 'EmissaryEnable',
    message,
  } as const
}

/**
 * `signedMetadata.account.emissaryConfig` as the devnet issues it: the spec's fields, and in
 * `emissaryEnable` what `IntentEmissary.enable` also needs (lockTag, nonce, expires as decimal
 * strings). `userSig` is `0x`: the account signs the same typed data itself when it enables.
 */
export type IssuedEmissaryConfig = EmissaryConfig & {
  emissaryEnable: { allocatorSig: Hex; userSig: Hex; lockTag: Hex; nonce: string; expires: string }
}

/** Reads the `EmissaryEnable` message back out of an issued config (what `enable` takes). */
export function emissaryEnableMessage(account: Address, config: IssuedEmissaryConfig): EmissaryEnableMessage {
  return {
    account,
    lockTag: config.emissaryEnable.lockTag,
    validator: config.validatorAddress as Address,
    allocator: config.settings.allocator as Address,
    nonce: BigInt(config.emissaryEnable.nonce),
    expires: BigInt(config.emissaryEnable.expires),
  }
}

/** Parameters of {@link createEmissaryConfigs}. */
export type CreateEmissaryConfigsParameters = {
  /** The allocator's signer (devnet.keys.allocator.account): the one our Allocator contract names. */
  allocatorSigner: PrivateKeyAccount
  /** How long an issued enable stays valid on chain, in seconds; default 7 days. */
  lifetimeSeconds?: number | undefined
  /** Most cached configs kept (oldest dropped first); default 10 000. */
  maxEntries?: number | undefined
}

/** Issues emissary configs, signing each (account, lockTag) once per half lifetime. */
export type EmissaryConfigs = {
  /** The config for `account`'s locks under `lockTag`, valid at least `lifetime / 2` after `now` (unix seconds). */
  configFor(parameters: { account: Address; lockTag: Hex; now: number }): Promise<IssuedEmissaryConfig>
}

/**
 * Creates the issuer of `emissaryConfig`: our OwnableValidator as the validator, our
 * IntentEmissary, our Allocator in `settings`, and `allocatorSig` = the allocator signer's
 * signature over `EmissaryEnable` (local signing, no chain read). Configs are cached per
 * (account, lockTag) and re-signed, with a fresh random nonce, once less than half their
 * lifetime is left, so a quote rarely pays for a signature.
 *
 * @example
 * const configs = createEmissaryConfigs({ allocatorSigner: devnet.keys.allocator.account })
 * const emissaryConfig = await configs.configFor({ account, lockTag: DEVNET_LOCK_TAG, now: clock.now() })
 */
export function createEmissaryConfigs(parameters: CreateEmissaryConfigsParameters): EmissaryConfigs {
  const { allocatorSigner } = parameters
  const lifetime = parameters.lifetimeSeconds ?? 7 * 24 * 3600
  const maxEntries = parameters.maxEntries ?? 10_000
  const cache = new Map<string, { expires: number; config: Promise<IssuedEmissaryConfig> }>()

  async function sign(account: Address, lockTag: Hex, expires: number): Promise<IssuedEmissaryConfig> {
    const message: EmissaryEnableMessage = {
      account: getAddress(account),
      lockTag,
      validator: addresses.ownableValidator,
      allocator: addresses.allocator,
      // Random: the emissary refuses a used nonce, and the service keeps no per-account counter.
      nonce: BigInt(`0x${randomBytes(16).toString('hex')}`),
      expires: BigInt(expires),
    }
    const allocatorSig = await allocatorSigner.signTypedData(emissaryEnableTypedData(message))
    return {
      validatorAddress: message.validator,
      emissaryAddress: addresses.emissary,
      emissaryEnable: {
        allocatorSig,
        userSig: '0x',
        lockTag,
        nonce: message.nonce.toString(),
        expires: message.expires.toString(),
      },
      settings: { allocator: message.allocator },
    }
  }

  return {
    configFor({ account, lockTag, now }) {
      const key = `${account.toLowerCase()}:${lockTag.toLowerCase()}`
      const cached = cache.get(key)
      if (cached && cached.expires - now >= lifetime / 2) return cached.config
      const expires = now + lifetime
      const config = sign(account, lockTag, expires)
      cache.delete(key)
      cache.set(key, { expires, config })
      if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string)
      // A failed signature is not cached.
      config.catch(() => {
        if (cache.get(key)?.config === config) cache.delete(key)
      })
      return config
    },
  }
}
