import { RhinestoneSDK } from '@rhinestone/sdk'
import {
  type Account,
  type Address,
  concat,
  createWalletClient,
  decodeAbiParameters,
  decodeEventLog,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getAddress,
  type Hex,
  hashMessage,
  hashTypedData,
  http,
  keccak256,
  parseEther,
  size,
  slice,
  toHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses } from '../addresses'
import {
  DevnetERC20,
  Multicall3,
  NexusAccount,
  NexusAccountFactory,
  NexusBootstrap,
  OwnableValidator,
} from '../generated/artifacts'
import {
  type AnvilClient,
  anvilAccounts,
  placeContract,
  placeToken,
  send as sendTx,
  startTestChain,
  type TestChain,
} from './helpers'

/** Sends the setup op (Anvil's default account 1; account 0 mints). */
const relayer = anvilAccounts[1]!
const ownerKey = keccak256(toHex('account.test owner'))
const strangerKey = keccak256(toHex('account.test stranger'))
const entryPoint07: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'
const usdc = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' satisfies Address
const recipient: Address = '0x000000000000000000000000000000000000bEEF'
const ERC1271_MAGIC = '0x1626ba7e'
const ERC1271_INVALID = '0xffffffff'

/** An ERC-7579 mode: call type (0x00 single, 0x01 batch) ‖ exec type (0x00 revert, 0x01 try) ‖ zeros. */
function mode(callType: Hex, execType: Hex = '0x00'): Hex {
  return encodePacked(['bytes1', 'bytes1', 'bytes30'], [callType, execType, `0x${'00'.repeat(30)}`])
}
const singleMode = mode('0x00')
const batchMode = mode('0x01')

function singleExecution(target: Address, value: bigint, data: Hex): Hex {
  return encodePacked(['address', 'uint256', 'bytes'], [target, value, data])
}

function batchExecution(calls: { target: Address; value: bigint; callData: Hex }[]): Hex {
  return encodeAbiParameters(
    [
      {
        type: 'tuple[]',
        components: [
          { name: 'target', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'callData', type: 'bytes' },
        ],
      },
    ],
    [calls],
  )
}

function transferData(to: Address, amount: bigint): Hex {
  return encodeFunctionData({ abi: DevnetERC20.abi, functionName: 'transfer', args: [to, amount] })
}

const typedData = {
  domain: { name: 'AccountTest', version: '1', chainId: base.id, verifyingContract: usdc },
  types: { Greeting: [{ name: 'text', type: 'string' }] },
  primaryType: 'Greeting',
  message: { text: 'hello from the devnet' },
} as const

describe('Nexus-compatible ERC-7579 account at the SDK addresses', () => {
  let chain: TestChain
  let publicClient: AnvilClient
  let testClient: AnvilClient
  let sdkAccount: Awaited<ReturnType<RhinestoneSDK['createAccount']>>
  let strangerSdkAccount: Awaited<ReturnType<RhinestoneSDK['createAccount']>>
  let account: Address

  /** Sends a transaction from a local key, or from an impersonated address. */
  async function send(from: Account | Address, to: Address, data: Hex, value = 0n) {
    const wallet = createWalletClient({
      chain: chain.chain,
      transport: http(chain.anvil.rpcUrl),
      account: from,
    })
    const hash = await wallet.sendTransaction({ to, data, value, chain: chain.chain, account: from })
    return publicClient.waitForTransactionReceipt({ hash })
  }

  /** Sends as `from` without its key (anvil impersonation), e.g. as the executor or the EntryPoint. */
  async function sendAs(from: Address, to: Address, data: Hex) {
    await testClient.impersonateAccount({ address: from })
    await testClient.setBalance({ address: from, value: parseEther('1') })
    try {
      return await send(from, to, data)
    } finally {
      await testClient.stopImpersonatingAccount({ address: from })
    }
  }

  async function usdcBalance(holder: Address) {
    return publicClient.readContract({
      address: usdc,
      abi: DevnetERC20.abi,
      functionName: 'balanceOf',
      args: [holder],
    })
  }

  beforeAll(async () => {
    // A real chain id: the SDK refuses others for smart accounts.
    chain = await startTestChain({ chainId: base.id })
    publicClient = chain.client
    testClient = chain.client
    await placeContract(chain.client, addresses.nexusImplementation, NexusAccount)
    await placeContract(chain.client, addresses.nexusFactory, NexusAccountFactory)
    await placeContract(chain.client, addresses.nexusBootstrap, NexusBootstrap)
    await placeContract(chain.client, addresses.ownableValidator, OwnableValidator)
    // The SDK batches its reads (getOwners) through Multicall3.
    await placeContract(chain.client, addresses.multicall3, Multicall3)
    // Stands in for the IntentExecutor the SDK installs: its onInstall must succeed (STOP does),
    // and these tests send its executeFromExecutor calls by impersonating this address.
    // account.intentExecutor.test.ts runs the real IntentExecutor.
    await testClient.setCode({ address: addresses.intentExecutor, bytecode: '0x00' })
    await placeToken(chain, usdc, { name: 'USD Coin', symbol: 'USDC', decimals: 6 })

    const sdk = new RhinestoneSDK({
      apiKey: 'unused',
      endpointUrl: 'http://127.0.0.1:9/unused',
      provider: { type: 'custom', urls: { [base.id]: chain.anvil.rpcUrl } },
    })
    sdkAccount = await sdk.createAccount({
      owners: { type: 'ecdsa', accounts: [privateKeyToAccount(ownerKey)] },
    })
    strangerSdkAccount = await sdk.createAccount({
      owners: { type: 'ecdsa', accounts: [privateKeyToAccount(strangerKey)] },
    })
    account = sdkAccount.getAddress()

    const minter = chain.wallets[0]!
    await sendTx(
      minter,
      minter.writeContract({
        address: usdc,
        abi: DevnetERC20.abi,
        functionName: 'mint',
        args: [account, 1_000_000_000n],
      }),
    )
  })

  afterAll(async () => {
    await chain?.stop()
  })

  it('deploys through our factory, with the SDK factory data, at the address the SDK predicts', async () => {
    const { factory, factoryData } = sdkAccount.getInitData()
    expect(factory.toLowerCase()).toBe(addresses.nexusFactory.toLowerCase())
    expect(await publicClient.getCode({ address: account })).toBeUndefined()
    expect(await sdkAccount.isDeployed(base)).toBe(false)

    const [initData, salt] = decodeCreateAccount(factoryData)
    expect(
      await publicClient.readContract({
        address: factory,
        abi: NexusAccountFactory.abi,
        functionName: 'computeAccountAddress',
        args: [initData, salt],
      }),
    ).toBe(account)

    // The setup op the SDK puts in its route request is exactly { to: factory, data: factoryData }.
    const receipt = await send(relayer, factory, factoryData)
    expect(receipt.status).toBe('success')
    const created = receipt.logs
      .filter((log) => log.address.toLowerCase() === factory.toLowerCase())
      .map((log) => decodeEventLog({ abi: NexusAccountFactory.abi, ...log }))
    expect(created.map((e) => e.eventName)).toEqual(['AccountCreated'])
    expect(size((await publicClient.getCode({ address: account })) ?? '0x')).toBeGreaterThan(0)
    expect(await sdkAccount.isDeployed(base)).toBe(true)

    // A second identical setup op is a no-op rather than a failure.
    expect((await send(relayer, factory, factoryData)).status).toBe('success')
  })

  it('is set up the way the SDK reads it back: owner, threshold, IntentExecutor', async () => {
    expect(await sdkAccount.getOwners(base)).toEqual({
      accounts: [privateKeyToAccount(ownerKey).address],
      threshold: 1n,
    })
    const validatorRead = (functionName: 'getOwners' | 'threshold') =>
      publicClient.readContract({
        address: addresses.ownableValidator,
        abi: OwnableValidator.abi,
        functionName,
        args: [account],
      })
    expect(await validatorRead('getOwners')).toEqual([privateKeyToAccount(ownerKey).address])
    expect(await validatorRead('threshold')).toBe(1n)
    expect(await sdkAccount.getValidators(base)).toEqual([])
    expect(await sdkAccount.getExecutors(base)).toEqual([addresses.intentExecutor])
    const read = (functionName: 'accountId' | 'entryPoint') =>
      publicClient.readContract({ address: account, abi: NexusAccount.abi, functionName })
    expect(await read('accountId')).toBe('intent-devnet.nexus-compatible.1.2.0')
    expect(await read('entryPoint')).toBe(entryPoint07)
    const installed = (typeId: bigint, module: Address) =>
      publicClient.readContract({
        address: account,
        abi: NexusAccount.abi,
        functionName: 'isModuleInstalled',
        args: [typeId, module, '0x'],
      })
    expect(await installed(2n, addresses.intentExecutor)).toBe(true)
    expect(await installed(1n, addresses.ownableValidator)).toBe(true)
    expect(await installed(2n, recipient)).toBe(false)
    const supports = (m: Hex) =>
      publicClient.readContract({
        address: account,
        abi: NexusAccount.abi,
        functionName: 'supportsExecutionMode',
        args: [m],
      })
    expect(await supports(singleMode)).toBe(true)
    expect(await supports(mode('0x01', '0x01'))).toBe(true)
    expect(await supports(mode('0xff'))).toBe(false)
  })

  it('cannot be initialised again once deployed', async () => {
    const { factoryData } = sdkAccount.getInitData()
    const [initData] = decodeCreateAccount(factoryData)
    await expect(
      publicClient.simulateContract({
        address: account,
        abi: NexusAccount.abi,
        functionName: 'initializeAccount',
        args: [initData],
        account: relayer.address,
      }),
    ).rejects.toThrow(/NotInitializing/)
  })

  it('accepts the owner signature the SDK produces and rejects another key', async () => {
    const hash = hashTypedData(typedData)
    const signature = await sdkAccount.signTypedData(typedData, base, undefined)
    // 20 zero bytes (the default validator) ‖ one 65-byte ECDSA signature over the EIP-712 digest.
    expect(size(signature)).toBe(85)
    expect(slice(signature, 0, 20)).toBe(zeroAddress)
    const isValid = (h: Hex, s: Hex) =>
      publicClient.readContract({
        address: account,
        abi: NexusAccount.abi,
        functionName: 'isValidSignature',
        args: [h, s],
      })
    expect(await isValid(hash, signature)).toBe(ERC1271_MAGIC)

    // The SDK's signMessage signs the eth-signed form and marks it with v + 4.
    const message = 'sign in to the devnet'
    const messageSignature = await sdkAccount.signMessage(message, base, undefined)
    expect(Number(BigInt(slice(messageSignature, 84, 85)))).toBeGreaterThan(30)
    expect(await isValid(hashMessage(message), messageSignature)).toBe(ERC1271_MAGIC)

    // The same format from another key (a counterfactual account: unwrap its ERC-6492 envelope).
    const strangerSignature = await strangerSdkAccount.signTypedData(typedData, base, undefined)
    const strangerInner = unwrapErc6492(strangerSignature)
    expect(slice(strangerInner, 0, 20)).toBe(zeroAddress)
    expect(await isValid(hash, strangerInner)).toBe(ERC1271_INVALID)

    expect(await isValid(hashMessage('another message'), signature)).toBe(ERC1271_INVALID)
    // A validator prefix that is not installed, and malformed data, are rejected, not reverted.
    expect(await isValid(hash, concat([recipient, slice(signature, 20)]))).toBe(ERC1271_INVALID)
    expect(await isValid(hash, slice(signature, 0, 60))).toBe(ERC1271_INVALID)
    expect(await isValid(hash, '0x')).toBe(ERC1271_INVALID)
  })

  it('runs a token transfer for the installed executor (executeFromExecutor, single and batch)', async () => {
    const before = await usdcBalance(recipient)
    const single = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'executeFromExecutor',
      args: [singleMode, singleExecution(usdc, 0n, transferData(recipient, 1_000n))],
    })
    expect((await sendAs(addresses.intentExecutor, account, single)).status).toBe('success')
    expect(await usdcBalance(recipient)).toBe(before + 1_000n)

    await testClient.setBalance({ address: account, value: parseEther('1') })
    const batch = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'executeFromExecutor',
      args: [
        batchMode,
        batchExecution([
          { target: usdc, value: 0n, callData: transferData(recipient, 2_000n) },
          { target: recipient, value: 5n, callData: '0x' },
        ]),
      ],
    })
    const ethBefore = await publicClient.getBalance({ address: recipient })
    expect((await sendAs(addresses.intentExecutor, account, batch)).status).toBe('success')
    expect(await usdcBalance(recipient)).toBe(before + 3_000n)
    expect(await publicClient.getBalance({ address: recipient })).toBe(ethBefore + 5n)
  })

  it('reverts a failing call in default mode and reports it in try mode', async () => {
    const tooMuch = transferData(recipient, 10n ** 30n)
    await expect(
      publicClient.simulateContract({
        address: account,
        // The token's errors too, so viem can name the bubbled-up revert.
        abi: [...NexusAccount.abi, ...DevnetERC20.abi],
        functionName: 'executeFromExecutor',
        args: [singleMode, singleExecution(usdc, 0n, tooMuch)],
        account: addresses.intentExecutor,
      }),
    ).rejects.toThrow(/InsufficientBalance/)

    const before = await usdcBalance(recipient)
    const tryBatch = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'executeFromExecutor',
      args: [
        mode('0x01', '0x01'),
        batchExecution([
          { target: usdc, value: 0n, callData: tooMuch },
          { target: usdc, value: 0n, callData: transferData(recipient, 7n) },
        ]),
      ],
    })
    const receipt = await sendAs(addresses.intentExecutor, account, tryBatch)
    expect(receipt.status).toBe('success')
    const failures = receipt.logs
      .filter((log) => log.address.toLowerCase() === account.toLowerCase())
      .map((log) => decodeEventLog({ abi: NexusAccount.abi, ...log }))
      .filter((e) => e.eventName === 'TryExecuteUnsuccessful')
    expect(failures).toHaveLength(1)
    expect(failures[0]?.args).toMatchObject({ batchExecutionIndex: 0n })
    expect(await usdcBalance(recipient)).toBe(before + 7n)
  })

  it('lets only installed executors call executeFromExecutor', async () => {
    await expect(
      publicClient.simulateContract({
        address: account,
        abi: NexusAccount.abi,
        functionName: 'executeFromExecutor',
        args: [singleMode, singleExecution(usdc, 0n, transferData(recipient, 1n))],
        account: recipient,
      }),
    ).rejects.toThrow(/ExecutorNotInstalled/)
  })

  it('lets the EntryPoint and the account itself call execute, and no one else', async () => {
    const before = await usdcBalance(recipient)
    const viaEntryPoint = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'execute',
      args: [
        batchMode,
        batchExecution([{ target: usdc, value: 0n, callData: transferData(recipient, 11n) }]),
      ],
    })
    expect((await sendAs(entryPoint07, account, viaEntryPoint)).status).toBe('success')
    expect(await usdcBalance(recipient)).toBe(before + 11n)

    // The executor asks the account to call its own execute: the self path.
    const selfCall = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'executeFromExecutor',
      args: [singleMode, singleExecution(account, 0n, viaEntryPoint)],
    })
    expect((await sendAs(addresses.intentExecutor, account, selfCall)).status).toBe('success')
    expect(await usdcBalance(recipient)).toBe(before + 22n)

    await expect(
      publicClient.simulateContract({
        address: account,
        abi: NexusAccount.abi,
        functionName: 'execute',
        args: [singleMode, singleExecution(usdc, 0n, transferData(recipient, 1n))],
        account: privateKeyToAccount(ownerKey).address,
      }),
    ).rejects.toThrow(/UnauthorizedCaller/)
  })

  it('installs and uninstalls an executor module through a self-call', async () => {
    // Any contract with an onInstall that does not revert will do: the USDC stand-in has none, so
    // use a fresh address holding STOP.
    const extra: Address = '0x0000000000000000000000000000000000000e0e'
    await testClient.setCode({ address: extra, bytecode: '0x00' })
    const install = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'installModule',
      args: [2n, extra, '0x'],
    })
    await sendAs(
      addresses.intentExecutor,
      account,
      encodeFunctionData({
        abi: NexusAccount.abi,
        functionName: 'executeFromExecutor',
        args: [singleMode, singleExecution(account, 0n, install)],
      }),
    )
    expect(await sdkAccount.getExecutors(base)).toEqual([getAddress(extra), addresses.intentExecutor])

    const uninstall = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'uninstallModule',
      args: [2n, extra, '0x'],
    })
    await sendAs(
      addresses.intentExecutor,
      account,
      encodeFunctionData({
        abi: NexusAccount.abi,
        functionName: 'executeFromExecutor',
        args: [singleMode, singleExecution(account, 0n, uninstall)],
      }),
    )
    expect(await sdkAccount.getExecutors(base)).toEqual([addresses.intentExecutor])
  })
})

/** The (initData, salt) of the SDK's `createAccount(bytes,bytes32)` factory call. */
function decodeCreateAccount(factoryData: Hex): readonly [Hex, Hex] {
  const { functionName, args } = decodeFunctionData({ abi: NexusAccountFactory.abi, data: factoryData })
  if (functionName !== 'createAccount') throw new Error(`unexpected factory call ${functionName}`)
  return args
}

function unwrapErc6492(signature: Hex): Hex {
  const magic = '0x6492649264926492649264926492649264926492649264926492649264926492'
  if (!signature.endsWith(magic.slice(2))) return signature
  const [, , inner] = decodeAbiParameters(
    [{ type: 'address' }, { type: 'bytes' }, { type: 'bytes' }],
    slice(signature, 0, size(signature) - 32),
  )
  return inner
}
