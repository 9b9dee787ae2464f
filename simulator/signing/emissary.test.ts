import { getAddress, keccak256, recoverTypedDataAddress, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { addresses } from '../../contracts/addresses'
import { EmissaryConfig } from '../../spec'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import { createEmissaryConfigs, emissaryEnableMessage, emissaryEnableTypedData } from './emissary'

const allocatorSigner = privateKeyToAccount(keccak256(toHex('emissary.test allocator')))
const account = getAddress('0x00000000000000000000000000000000000a11ce')
const now = 1_800_000_000

describe('createEmissaryConfigs', () => {
  test('issues the spec shape with our contracts and an allocator signature over EmissaryEnable', async () => {
    const configs = createEmissaryConfigs({ allocatorSigner, lifetimeSeconds: 1000 })
    const config = await configs.configFor({ account, lockTag: DEVNET_LOCK_TAG, now })
    expect(EmissaryConfig.parse(config)).toEqual(config)
    expect(config).toMatchObject({
      validatorAddress: addresses.ownableValidator,
      emissaryAddress: addresses.emissary,
      emissaryEnable: { userSig: '0x', lockTag: DEVNET_LOCK_TAG, expires: String(now + 1000) },
      settings: { allocator: addresses.allocator },
    })
    const message = emissaryEnableMessage(account, config)
    expect(message.validator).toBe(addresses.ownableValidator)
    const signer = await recoverTypedDataAddress({
      ...emissaryEnableTypedData(message),
      signature: config.emissaryEnable.allocatorSig,
    })
    expect(signer).toBe(allocatorSigner.address)
  })

  test('caches per account and lock tag until half the lifetime is left', async () => {
    const configs = createEmissaryConfigs({ allocatorSigner, lifetimeSeconds: 1000 })
    const first = await configs.configFor({ account, lockTag: DEVNET_LOCK_TAG, now })
    expect(
      await configs.configFor({
        account: account.toLowerCase() as `0x${string}`,
        lockTag: DEVNET_LOCK_TAG,
        now: now + 500,
      }),
    ).toBe(first)
    const otherTag = await configs.configFor({ account, lockTag: '0x2f00000000000000a110ca70', now })
    expect(otherTag).not.toBe(first)
    const renewed = await configs.configFor({ account, lockTag: DEVNET_LOCK_TAG, now: now + 501 })
    expect(renewed).not.toBe(first)
    expect(renewed.emissaryEnable.expires).toBe(String(now + 1501))
    expect(renewed.emissaryEnable.nonce).not.toBe(first.emissaryEnable.nonce)
  })

  test('keeps at most maxEntries configs', async () => {
    const configs = createEmissaryConfigs({ allocatorSigner, maxEntries: 1 })
    const first = await configs.configFor({ account, lockTag: DEVNET_LOCK_TAG, now })
    await configs.configFor({ account: addresses.arbiter, lockTag: DEVNET_LOCK_TAG, now })
    expect(await configs.configFor({ account, lockTag: DEVNET_LOCK_TAG, now })).not.toBe(first)
  })
})
