/**
 * The Nexus-compatible ERC-7579 account at the SDK's addresses on one Anvil (Base's id), as the
 * account*.test.ts files that drive it through the public SDK use it: the factory, the
 * implementation, the bootstrap, the OwnableValidator and Multicall3 placed, a stand-in for the
 * IntentExecutor, USDC, and the SDK accounts of an owner and a stranger; the owner's account
 * holds 1 000 USDC (deployed only with `deployed: true`). Tests build on each other's state.
 *
 * @example
 * const fx = useNexusAccount({ deployed: true })
 * it('...', async () => {
 *   expect(await fx.usdcBalance(fx.account)).toBe(1_000_000_000n)
 * })
 */
import { RhinestoneSDK } from '@rhinestone/sdk'
import {
  type Account,
  type Address,
  createWalletClient,
  decodeAbiParameters,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  http,
  keccak256,
  parseEther,
  size,
  slice,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { addresses } from '../../addresses'
import {
  DevnetERC20,
  Multicall3,
  NexusAccount,
  NexusAccountFactory,
  NexusBootstrap,
  OwnableValidator,
} from '../../generated/artifacts'
import {
  type AnvilClient,
  anvilAccounts,
  placeContract,
  placeToken,
  send as sendTx,
  startTestChain,
  type TestChain,
} from '../helpers'
import { useChain } from './useChain'

/** Sends the setup op (Anvil's default account 1; account 0 mints). */
export const relayer = anvilAccounts[1]!
export const ownerKey = keccak256(toHex('account.test owner'))
const strangerKey = keccak256(toHex('account.test stranger'))
export const entryPoint07: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'
export const usdc = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' satisfies Address
export const recipient: Address = '0x000000000000000000000000000000000000bEEF'
export const ERC1271_MAGIC = '0x1626ba7e'
export const ERC1271_INVALID = '0xffffffff'

/** An ERC-7579 mode: call type (0x00 single, 0x01 batch) ‖ exec type (0x00 revert, 0x01 try) ‖ zeros. */
export function mode(callType: Hex, execType: Hex = '0x00'): Hex {
  return encodePacked(['bytes1', 'bytes1', 'bytes30'], [callType, execType, `0x${'00'.repeat(30)}`])
}
export const singleMode = mode('0x00')
export const batchMode = mode('0x01')

/** An ERC-7579 single execution: target ‖ value ‖ calldata. */
export function singleExecution(target: Address, value: bigint, data: Hex): Hex {
  return encodePacked(['address', 'uint256', 'bytes'], [target, value, data])
}

/** An ERC-7579 batch execution: the ABI-encoded (target, value, callData)[]. */
export function batchExecution(calls: { target: Address; value: bigint; callData: Hex }[]): Hex {
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

/** The calldata of an ERC-20 transfer. */
export function transferData(to: Address, amount: bigint): Hex {
  return encodeFunctionData({ abi: DevnetERC20.abi, functionName: 'transfer', args: [to, amount] })
}

/** The (initData, salt) of the SDK's `createAccount(bytes,bytes32)` factory call. */
export function decodeCreateAccount(factoryData: Hex): readonly [Hex, Hex] {
  const { functionName, args } = decodeFunctionData({ abi: NexusAccountFactory.abi, data: factoryData })
  if (functionName !== 'createAccount') throw new Error(`unexpected factory call ${functionName}`)
  return args
}

/** The inner signature of an ERC-6492 envelope (a counterfactual account's), or the signature itself. */
export function unwrapErc6492(signature: Hex): Hex {
  const magic = '0x6492649264926492649264926492649264926492649264926492649264926492'
  if (!signature.endsWith(magic.slice(2))) return signature
  const [, , inner] = decodeAbiParameters(
    [{ type: 'address' }, { type: 'bytes' }, { type: 'bytes' }],
    slice(signature, 0, size(signature) - 32),
  )
  return inner
}

type SdkAccount = Awaited<ReturnType<RhinestoneSDK['createAccount']>>

/** The chain, the SDK accounts, and the calls the tests share. */
export class NexusAccountChain {
  chain!: TestChain
  publicClient!: AnvilClient
  testClient!: AnvilClient
  sdkAccount!: SdkAccount
  strangerSdkAccount!: SdkAccount
  account!: Address

  constructor(private readonly options: { deployed: boolean }) {}

  /** Starts the Anvil, places the contracts and builds the SDK accounts (and deploys the owner's). */
  async start(): Promise<TestChain> {
    // A real chain id: the SDK refuses others for smart accounts.
    const chain = await startTestChain({ chainId: base.id })
    this.chain = chain
    this.publicClient = chain.client
    this.testClient = chain.client
    await placeContract(chain.client, addresses.nexusImplementation, NexusAccount)
    await placeContract(chain.client, addresses.nexusFactory, NexusAccountFactory)
    await placeContract(chain.client, addresses.nexusBootstrap, NexusBootstrap)
    await placeContract(chain.client, addresses.ownableValidator, OwnableValidator)
    // The SDK batches its reads (getOwners) through Multicall3.
    await placeContract(chain.client, addresses.multicall3, Multicall3)
    // Stands in for the IntentExecutor the SDK installs: its onInstall must succeed (STOP does),
    // and these tests send its executeFromExecutor calls by impersonating this address.
    // account.intentExecutor.test.ts runs the real IntentExecutor.
    await chain.client.setCode({ address: addresses.intentExecutor, bytecode: '0x00' })
    await placeToken(chain, usdc, { name: 'USD Coin', symbol: 'USDC', decimals: 6 })

    const sdk = new RhinestoneSDK({
      apiKey: 'unused',
      endpointUrl: 'http://127.0.0.1:9/unused',
      provider: { type: 'custom', urls: { [base.id]: chain.anvil.rpcUrl } },
    })
    this.sdkAccount = await sdk.createAccount({
      owners: { type: 'ecdsa', accounts: [privateKeyToAccount(ownerKey)] },
    })
    this.strangerSdkAccount = await sdk.createAccount({
      owners: { type: 'ecdsa', accounts: [privateKeyToAccount(strangerKey)] },
    })
    this.account = this.sdkAccount.getAddress()

    const minter = chain.wallets[0]!
    await sendTx(
      minter,
      minter.writeContract({
        address: usdc,
        abi: DevnetERC20.abi,
        functionName: 'mint',
        args: [this.account, 1_000_000_000n],
      }),
    )
    if (this.options.deployed) {
      // The setup op the SDK puts in its route request: { to: factory, data: factoryData }.
      const { factory, factoryData } = this.sdkAccount.getInitData()
      const receipt = await this.send(relayer, factory, factoryData)
      if (receipt.status !== 'success') throw new Error('the account factory call reverted')
    }
    return chain
  }

  /** Sends a transaction from a local key, or from an impersonated address. */
  async send(from: Account | Address, to: Address, data: Hex, value = 0n) {
    const wallet = createWalletClient({
      chain: this.chain.chain,
      transport: http(this.chain.anvil.rpcUrl),
      account: from,
    })
    const hash = await wallet.sendTransaction({ to, data, value, chain: this.chain.chain, account: from })
    return this.publicClient.waitForTransactionReceipt({ hash })
  }

  /** Sends as `from` without its key (anvil impersonation), e.g. as the executor or the EntryPoint. */
  async sendAs(from: Address, to: Address, data: Hex) {
    await this.testClient.impersonateAccount({ address: from })
    await this.testClient.setBalance({ address: from, value: parseEther('1') })
    try {
      return await this.send(from, to, data)
    } finally {
      await this.testClient.stopImpersonatingAccount({ address: from })
    }
  }

  /** The USDC balance of `holder`. */
  async usdcBalance(holder: Address) {
    return this.publicClient.readContract({
      address: usdc,
      abi: DevnetERC20.abi,
      functionName: 'balanceOf',
      args: [holder],
    })
  }
}

/**
 * Registers the calling file's hooks (see useChain; no snapshots) and returns the chain they fill.
 *
 * @param options.deployed deploy the owner's account in the set-up (as the first test of
 *   account.test.ts does).
 */
export function useNexusAccount(options: { deployed: boolean }): NexusAccountChain {
  const fx = new NexusAccountChain(options)
  useChain(fx, { snapshots: false })
  return fx
}
