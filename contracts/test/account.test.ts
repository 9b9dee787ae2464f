import {
  type Address,
  concat,
  decodeEventLog,
  type Hex,
  hashMessage,
  hashTypedData,
  size,
  slice,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { addresses } from '../addresses'
import { NexusAccount, NexusAccountFactory, OwnableValidator } from '../generated/artifacts'
import {
  decodeCreateAccount,
  ERC1271_INVALID,
  ERC1271_MAGIC,
  entryPoint07,
  mode,
  ownerKey,
  recipient,
  relayer,
  singleMode,
  unwrapErc6492,
  usdc,
  useNexusAccount,
} from './support/accountFixture'

// The account as the SDK deploys it and reads it back, and the owner's signatures it accepts.
const fx = useNexusAccount({ deployed: false })

const typedData = {
  domain: { name: 'AccountTest', version: '1', chainId: base.id, verifyingContract: usdc },
  types: { Greeting: [{ name: 'text', type: 'string' }] },
  primaryType: 'Greeting',
  message: { text: 'hello from the devnet' },
} as const

describe('Nexus-compatible ERC-7579 account at the SDK addresses', () => {
  it('deploys through our factory, with the SDK factory data, at the address the SDK predicts', async () => {
    const { factory, factoryData } = fx.sdkAccount.getInitData()
    expect(factory.toLowerCase()).toBe(addresses.nexusFactory.toLowerCase())
    expect(await fx.publicClient.getCode({ address: fx.account })).toBeUndefined()
    expect(await fx.sdkAccount.isDeployed(base)).toBe(false)

    const [initData, salt] = decodeCreateAccount(factoryData)
    expect(
      await fx.publicClient.readContract({
        address: factory,
        abi: NexusAccountFactory.abi,
        functionName: 'computeAccountAddress',
        args: [initData, salt],
      }),
    ).toBe(fx.account)

    // The setup op the SDK puts in its route request is exactly { to: factory, data: factoryData }.
    const receipt = await fx.send(relayer, factory, factoryData)
    expect(receipt.status).toBe('success')
    const created = receipt.logs
      .filter((log) => log.address.toLowerCase() === factory.toLowerCase())
      .map((log) => decodeEventLog({ abi: NexusAccountFactory.abi, ...log }))
    expect(created.map((e) => e.eventName)).toEqual(['AccountCreated'])
    expect(size((await fx.publicClient.getCode({ address: fx.account })) ?? '0x')).toBeGreaterThan(0)
    expect(await fx.sdkAccount.isDeployed(base)).toBe(true)

    // A second identical setup op is a no-op rather than a failure.
    expect((await fx.send(relayer, factory, factoryData)).status).toBe('success')
  })

  it('is set up the way the SDK reads it back: owner, threshold, IntentExecutor', async () => {
    expect(await fx.sdkAccount.getOwners(base)).toEqual({
      accounts: [privateKeyToAccount(ownerKey).address],
      threshold: 1n,
    })
    const validatorRead = (functionName: 'getOwners' | 'threshold') =>
      fx.publicClient.readContract({
        address: addresses.ownableValidator,
        abi: OwnableValidator.abi,
        functionName,
        args: [fx.account],
      })
    expect(await validatorRead('getOwners')).toEqual([privateKeyToAccount(ownerKey).address])
    expect(await validatorRead('threshold')).toBe(1n)
    expect(await fx.sdkAccount.getValidators(base)).toEqual([])
    expect(await fx.sdkAccount.getExecutors(base)).toEqual([addresses.intentExecutor])
    const read = (functionName: 'accountId' | 'entryPoint') =>
      fx.publicClient.readContract({ address: fx.account, abi: NexusAccount.abi, functionName })
    expect(await read('accountId')).toBe('intent-devnet.nexus-compatible.1.2.0')
    expect(await read('entryPoint')).toBe(entryPoint07)
    const installed = (typeId: bigint, module: Address) =>
      fx.publicClient.readContract({
        address: fx.account,
        abi: NexusAccount.abi,
        functionName: 'isModuleInstalled',
        args: [typeId, module, '0x'],
      })
    expect(await installed(2n, addresses.intentExecutor)).toBe(true)
    expect(await installed(1n, addresses.ownableValidator)).toBe(true)
    expect(await installed(2n, recipient)).toBe(false)
    const supports = (m: Hex) =>
      fx.publicClient.readContract({
        address: fx.account,
        abi: NexusAccount.abi,
        functionName: 'supportsExecutionMode',
        args: [m],
      })
    expect(await supports(singleMode)).toBe(true)
    expect(await supports(mode('0x01', '0x01'))).toBe(true)
    expect(await supports(mode('0xff'))).toBe(false)
  })

  it('cannot be initialised again once deployed', async () => {
    const { factoryData } = fx.sdkAccount.getInitData()
    const [initData] = decodeCreateAccount(factoryData)
    await expect(
      fx.publicClient.simulateContract({
        address: fx.account,
        abi: NexusAccount.abi,
        functionName: 'initializeAccount',
        args: [initData],
        account: relayer.address,
      }),
    ).rejects.toThrow(/NotInitializing/)
  })

  it('accepts the owner signature the SDK produces and rejects another key', async () => {
    const hash = hashTypedData(typedData)
    const signature = await fx.sdkAccount.signTypedData(typedData, base, undefined)
    // 20 zero bytes (the default validator) ‖ one 65-byte ECDSA signature over the EIP-712 digest.
    expect(size(signature)).toBe(85)
    expect(slice(signature, 0, 20)).toBe(zeroAddress)
    const isValid = (h: Hex, s: Hex) =>
      fx.publicClient.readContract({
        address: fx.account,
        abi: NexusAccount.abi,
        functionName: 'isValidSignature',
        args: [h, s],
      })
    expect(await isValid(hash, signature)).toBe(ERC1271_MAGIC)

    // The SDK's signMessage signs the eth-signed form and marks it with v + 4.
    const message = 'sign in to the devnet'
    const messageSignature = await fx.sdkAccount.signMessage(message, base, undefined)
    expect(Number(BigInt(slice(messageSignature, 84, 85)))).toBeGreaterThan(30)
    expect(await isValid(hashMessage(message), messageSignature)).toBe(ERC1271_MAGIC)

    // The same format from another key (a counterfactual account: unwrap its ERC-6492 envelope).
    const strangerSignature = await fx.strangerSdkAccount.signTypedData(typedData, base, undefined)
    const strangerInner = unwrapErc6492(strangerSignature)
    expect(slice(strangerInner, 0, 20)).toBe(zeroAddress)
    expect(await isValid(hash, strangerInner)).toBe(ERC1271_INVALID)

    expect(await isValid(hashMessage('another message'), signature)).toBe(ERC1271_INVALID)
    // A validator prefix that is not installed, and malformed data, are rejected, not reverted.
    expect(await isValid(hash, concat([recipient, slice(signature, 20)]))).toBe(ERC1271_INVALID)
    expect(await isValid(hash, slice(signature, 0, 60))).toBe(ERC1271_INVALID)
    expect(await isValid(hash, '0x')).toBe(ERC1271_INVALID)
  })
})
