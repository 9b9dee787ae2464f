import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getAddress,
  type Hex,
  keccak256,
  type LocalAccount,
  type PublicClient,
  zeroAddress,
} from 'viem'
import { addresses } from '../contracts/addresses'
import { NexusAccount, NexusAccountFactory, NexusBootstrap } from '../contracts/generated/artifacts'

/** A Nexus smart account of one owner, as a route request's `account` names it. */
export type SmartAccount = {
  address: Address
  /** The owner key's address. */
  owner: Address
  /** The factory call that deploys it (the route request's `account.setupOps`). */
  setupOps: { to: Address; data: Hex }[]
  /** The factory's `createAccount` calldata (what `setupOps` sends). */
  factoryData: Hex
}

/**
 * Shared by the conformance runner's `smartAccount` step and the simulator's tests (one encoding of
 * the SDK's account, not two).
 *
 * The Nexus smart account the public SDK 1.x makes for one ECDSA owner (docs/smart-account.md):
 * the default OwnableValidator with threshold 1, the IntentExecutor installed as executor module,
 * salt keccak256('0x'); its address as the chain's factory computes it (CREATE2).
 *
 * @example
 * const account = await smartAccountOf(publicClient, owner.address)
 */
export async function smartAccountOf(
  publicClient: PublicClient,
  owner: Address,
  contracts: { factory: Address; bootstrap: Address; intentExecutor: Address } = {
    factory: addresses.nexusFactory,
    bootstrap: addresses.nexusBootstrap,
    intentExecutor: addresses.intentExecutor,
  },
  salt: Hex = keccak256('0x'),
): Promise<SmartAccount> {
  const initData = accountInitData(owner, contracts)
  const address = await publicClient.readContract({
    address: contracts.factory,
    abi: NexusAccountFactory.abi,
    functionName: 'computeAccountAddress',
    args: [initData, salt],
  })
  const data = encodeFunctionData({
    abi: NexusAccountFactory.abi,
    functionName: 'createAccount',
    args: [initData, salt],
  })
  return {
    address: getAddress(address),
    owner: getAddress(owner),
    setupOps: [{ to: contracts.factory, data }],
    factoryData: data,
  }
}

/**
 * The bootstrap a Nexus account of one ECDSA owner is initialised with: `abi.encode(bootstrap,
 * bootstrapCall)`, the default OwnableValidator (threshold 1) and the IntentExecutor as executor.
 */
function accountInitData(owner: Address, contracts: { bootstrap: Address; intentExecutor: Address }): Hex {
  const bootstrapCall = encodeFunctionData({
    abi: NexusBootstrap.abi,
    functionName: 'initNexusWithDefaultValidatorAndOtherModulesNoRegistry',
    args: [
      encodeAbiParameters([{ type: 'uint256' }, { type: 'address[]' }], [1n, [owner]]),
      [],
      [{ module: contracts.intentExecutor, initData: '0x' }],
      { module: zeroAddress, initData: '0x' },
      [],
      [],
    ],
  })
  return encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [contracts.bootstrap, bootstrapCall])
}

/** An EOA turned into a Nexus account by EIP-7702, as a route request's `account` and a signed intentOp name it. */
export type Eip7702Account = Omit<SmartAccount, 'factoryData'> & {
  /** The EOA's authorization delegating it to the Nexus implementation (chain id 0: every chain). */
  signedAuthorizations: {
    chainId: number
    address: Address
    nonce: string
    yParity: number
    r: Hex
    s: Hex
  }[]
}

/**
 * The public SDK's EIP-7702 mode (docs/smart-account.md): the EOA itself is the account. It signs
 * an authorization delegating its code to the Nexus implementation (chain id 0, so one
 * authorization serves every chain; `nonce`: the EOA's transaction count, 0 for a fresh key), and
 * its only setup op calls `initializeAccount` on itself with the init data the EOA signs: the
 * 65-byte signature over `Initialize(address nexus,uint256[] chainIds,bytes initData)` (domain
 * `{name 'Nexus', version '1.2.0'}`), the index and count of `chainIds` ([0]: any chain), the chain
 * ids, then the account's bootstrap, owned by the EOA. Sends nothing.
 *
 * @example
 * const account = await eip7702AccountOf(nativeSigningAccount(key), 0)
 */
export async function eip7702AccountOf(
  eoa: LocalAccount,
  nonce: number,
  contracts: { implementation: Address; bootstrap: Address; intentExecutor: Address } = {
    implementation: addresses.nexusImplementation,
    bootstrap: addresses.nexusBootstrap,
    intentExecutor: addresses.intentExecutor,
  },
): Promise<Eip7702Account> {
  if (!eoa.signAuthorization || !eoa.signTypedData)
    throw new Error('The EOA cannot sign (a local account is needed).')
  const accountInit = accountInitData(eoa.address, contracts)
  const chainIds = [0n]
  const initSignature = await eoa.signTypedData({
    domain: { name: 'Nexus', version: '1.2.0' },
    types: {
      Initialize: [
        { name: 'nexus', type: 'address' },
        { name: 'chainIds', type: 'uint256[]' },
        { name: 'initData', type: 'bytes' },
      ],
    },
    primaryType: 'Initialize',
    message: { nexus: contracts.implementation, chainIds, initData: accountInit },
  })
  const initData = concat([
    initSignature,
    encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [0n, BigInt(chainIds.length)]),
    encodePacked(['uint256[]'], [chainIds]),
    accountInit,
  ])
  const data = encodeFunctionData({
    abi: NexusAccount.abi,
    functionName: 'initializeAccount',
    args: [initData],
  })
  const authorization = await eoa.signAuthorization({ address: contracts.implementation, chainId: 0, nonce })
  return {
    address: getAddress(eoa.address),
    owner: getAddress(eoa.address),
    setupOps: [{ to: getAddress(eoa.address), data }],
    signedAuthorizations: [
      {
        chainId: 0,
        address: getAddress(contracts.implementation),
        nonce: String(nonce),
        yParity: authorization.yParity ?? (authorization.v === 28n ? 1 : 0),
        r: authorization.r,
        s: authorization.s,
      },
    ],
  }
}

/**
 * A Nexus account's signature from its owner's ECDSA signature over the typed data: the
 * validator's 20 bytes (zero: the default OwnableValidator) then the 65 bytes (facts §2).
 */
export const smartAccountSignature = (ownerSignature: Hex): Hex => concat([zeroAddress, ownerSignature])
