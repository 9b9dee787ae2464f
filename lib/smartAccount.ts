import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  type PublicClient,
  zeroAddress,
} from 'viem'
import { addresses } from '../contracts/addresses'
import { NexusAccountFactory, NexusBootstrap } from '../contracts/generated/artifacts'

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
  const initData = encodeAbiParameters(
    [{ type: 'address' }, { type: 'bytes' }],
    [contracts.bootstrap, bootstrapCall],
  )
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
 * A Nexus account's signature from its owner's ECDSA signature over the typed data: the
 * validator's 20 bytes (zero: the default OwnableValidator) then the 65 bytes (facts §2).
 */
export const smartAccountSignature = (ownerSignature: Hex): Hex => concat([zeroAddress, ownerSignature])
