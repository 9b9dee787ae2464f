import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  type PublicClient,
  zeroAddress,
} from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { addresses } from '../../../contracts/addresses'
import { NexusAccountFactory, NexusBootstrap } from '../../../contracts/generated/artifacts'
import type { IntentSigner } from './buildSignedIntent'

/** A Nexus-compatible smart account owned by one EOA, as docs/smart-account.md describes it. */
export type NexusAccountInfo = {
  address: Address
  owner: PrivateKeyAccount
  factory: Address
  factoryData: Hex
  /** What the route request's `account.setupOps` carries (the relayer deploys it from these). */
  setupOps: { to: Address; data: Hex }[]
  /** Signs as the account: zero validator prefix ‖ the owner's ECDSA over the typed data. */
  signer: Extract<IntentSigner, { kind: 'smartAccount' }>
}

/**
 * Builds the factory call of a Nexus account for `owner` (our own encoding, no SDK: default
 * OwnableValidator with threshold 1, the IntentExecutor installed as executor module, salt
 * keccak256('0x')) and asks the devnet's factory for its address.
 */
export async function nexusAccountFor(
  publicClient: PublicClient,
  owner: PrivateKeyAccount,
  salt: Hex = keccak256('0x'),
): Promise<NexusAccountInfo> {
  const bootstrapCall = encodeFunctionData({
    abi: NexusBootstrap.abi,
    functionName: 'initNexusWithDefaultValidatorAndOtherModulesNoRegistry',
    args: [
      encodeAbiParameters([{ type: 'uint256' }, { type: 'address[]' }], [1n, [owner.address]]),
      [],
      [{ module: addresses.intentExecutor, initData: '0x' }],
      { module: zeroAddress, initData: '0x' },
      [],
      [],
    ],
  })
  const initData = encodeAbiParameters(
    [{ type: 'address' }, { type: 'bytes' }],
    [addresses.nexusBootstrap, bootstrapCall],
  )
  const factoryData = encodeFunctionData({
    abi: NexusAccountFactory.abi,
    functionName: 'createAccount',
    args: [initData, salt],
  })
  const address = getAddress(
    await publicClient.readContract({
      address: addresses.nexusFactory,
      abi: NexusAccountFactory.abi,
      functionName: 'computeAccountAddress',
      args: [initData, salt],
    }),
  )
  const setupOps = [{ to: addresses.nexusFactory as Address, data: factoryData }]
  return {
    address,
    owner,
    factory: addresses.nexusFactory,
    factoryData,
    setupOps,
    signer: { kind: 'smartAccount', address, owner, setupOps },
  }
}
