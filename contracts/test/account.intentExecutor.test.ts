import { RhinestoneSDK } from '@rhinestone/sdk'
import {
  type Address,
  encodeFunctionData,
  type Hex,
  keccak256,
  size,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SINGLE_CHAIN_OPS_TYPES } from '../../spec'
import { addresses } from '../addresses'
import {
  DevnetERC20,
  IntentExecutor,
  NexusAccount,
  NexusAccountFactory,
  NexusBootstrap,
  OwnableValidator,
} from '../generated/artifacts'
import { placeContract, placeToken, send, startTestChain, type TestChain } from './helpers'

const usdc: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const recipient: Address = '0x000000000000000000000000000000000000bEEF'

/** The SDK's INTENT_EXECUTOR typed data (`SingleChainOps`), as its execution/singleChainOps builds it. */
function singleChainOps(account: Address, nonce: bigint, ops: { to: Address; value: bigint; data: Hex }[]) {
  return {
    domain: {
      name: 'IntentExecutor',
      version: 'v0.0.1',
      chainId: base.id,
      verifyingContract: addresses.intentExecutor,
    },
    types: SINGLE_CHAIN_OPS_TYPES,
    primaryType: 'SingleChainOps',
    message: {
      account,
      nonce,
      op: { vt: zeroHash, ops },
      gasRefund: { token: zeroAddress, exchangeRate: 0n, overhead: 0n },
    },
  } as const
}

describe('the SDK account runs destination ops through the real IntentExecutor', () => {
  let chain: TestChain
  let sdkAccount: Awaited<ReturnType<RhinestoneSDK['createAccount']>>
  let strangerAccount: Awaited<ReturnType<RhinestoneSDK['createAccount']>>
  let account: Address

  beforeAll(async () => {
    chain = await startTestChain({ chainId: base.id })
    await placeContract(chain.client, addresses.nexusImplementation, NexusAccount)
    await placeContract(chain.client, addresses.nexusFactory, NexusAccountFactory)
    await placeContract(chain.client, addresses.nexusBootstrap, NexusBootstrap)
    await placeContract(chain.client, addresses.ownableValidator, OwnableValidator)
    await placeContract(chain.client, addresses.intentExecutor, IntentExecutor)
    await placeToken(chain, usdc, { name: 'USD Coin', symbol: 'USDC', decimals: 6 })

    const sdk = new RhinestoneSDK({
      apiKey: 'unused',
      endpointUrl: 'http://127.0.0.1:9/unused',
      provider: { type: 'custom', urls: { [base.id]: chain.anvil.rpcUrl } },
    })
    const owner = privateKeyToAccount(keccak256(toHex('account.intentExecutor owner')))
    const stranger = privateKeyToAccount(keccak256(toHex('account.intentExecutor stranger')))
    sdkAccount = await sdk.createAccount({ owners: { type: 'ecdsa', accounts: [owner] } })
    strangerAccount = await sdk.createAccount({ owners: { type: 'ecdsa', accounts: [stranger] } })
    account = sdkAccount.getAddress()

    // The relayer runs the SDK's setup op, as the service does before the first fill.
    const { factory, factoryData } = sdkAccount.getInitData()
    const relayer = chain.wallets[1]!
    await send(relayer, relayer.sendTransaction({ to: factory, data: factoryData }))
    const minter = chain.wallets[0]!
    await send(
      minter,
      minter.writeContract({
        address: usdc,
        abi: DevnetERC20.abi,
        functionName: 'mint',
        args: [account, 5_000n],
      }),
    )
  })

  afterAll(async () => {
    await chain?.stop()
  })

  it('installed the IntentExecutor at creation (its onInstall ran for the account)', async () => {
    expect(
      await chain.client.readContract({
        address: addresses.intentExecutor,
        abi: IntentExecutor.abi,
        functionName: 'isInitialized',
        args: [account],
      }),
    ).toBe(true)
    expect(await sdkAccount.getExecutors(base)).toEqual([addresses.intentExecutor])
  })

  it('executes owner-signed SingleChainOps (ERC-1271 through the account, then executeFromExecutor)', async () => {
    const ops = [
      {
        to: usdc,
        value: 0n,
        data: encodeFunctionData({
          abi: DevnetERC20.abi,
          functionName: 'transfer',
          args: [recipient, 1_234n],
        }),
      },
    ]
    const typedData = singleChainOps(account, 1n, ops)
    const signature = await sdkAccount.signTypedData(typedData, base, undefined)
    expect(size(signature)).toBe(85)
    const { message } = typedData
    const call = {
      address: addresses.intentExecutor,
      abi: IntentExecutor.abi,
      functionName: 'executeSingleChainOps',
    } as const
    const relayer = chain.wallets[1]!

    // Another key's signature in the same format is refused.
    const strangerSignature = await strangerAccount.signTypedData(
      singleChainOps(account, 1n, ops),
      base,
      undefined,
    )
    await expect(
      chain.client.simulateContract({
        ...call,
        args: [message, strangerSignature],
        account: relayer.account,
      }),
    ).rejects.toThrow(/InvalidSignature/)

    await send(relayer, relayer.writeContract({ ...call, args: [message, signature] }))
    expect(
      await chain.client.readContract({
        address: usdc,
        abi: DevnetERC20.abi,
        functionName: 'balanceOf',
        args: [recipient],
      }),
    ).toBe(1_234n)
  })
})
