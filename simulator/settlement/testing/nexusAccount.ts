import { type Address, type Hex, keccak256, type PublicClient } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { addresses } from '../../../contracts/addresses'
import { smartAccountOf } from '../../../lib/smartAccount'
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
 * The Nexus account of `owner` as the SDK makes it (lib/smartAccount.ts: default OwnableValidator
 * with threshold 1, the IntentExecutor as executor module, salt keccak256('0x')), with its signer.
 */
export async function nexusAccountFor(
  publicClient: PublicClient,
  owner: PrivateKeyAccount,
  salt: Hex = keccak256('0x'),
): Promise<NexusAccountInfo> {
  const { address, setupOps, factoryData } = await smartAccountOf(
    publicClient,
    owner.address,
    undefined,
    salt,
  )
  return {
    address,
    owner,
    factory: addresses.nexusFactory,
    factoryData,
    setupOps,
    signer: { kind: 'smartAccount', address, owner, setupOps },
  }
}
