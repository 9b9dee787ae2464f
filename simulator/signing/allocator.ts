import { randomBytes } from 'node:crypto'
import type { Address, Chain, Hex, PublicClient, Transport } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { addresses } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { hashTypedData } from '../../lib/hashTypedData'
import { BATCH_COMPACT_TYPES, COMPACT_TYPES } from '../../spec'
import { BaseError } from '../../spec/BaseError'

export { BATCH_COMPACT_TYPES, COMPACT_TYPES }

/** The Compact's EIP-712 domain on one chain. */
export const compactDomain = (chainId: number) =>
  ({ name: 'The Compact', version: '1', chainId, verifyingContract: addresses.compact }) as const

export class AllocatorNonceError extends BaseError {
  override name = 'Signing.AllocatorNonceError'
}

/** A lock with its amount, as one commitment of a (batch) compact. */
export type Commitment = { lockTag: Hex; token: Address; amount: bigint }

/** The allocator: issues never-reused nonces and signs claim digests with the allocator key. */
export type Allocator = {
  /** A fresh nonce for `account` on a chain: never issued before by this process, and not consumed on chain. */
  issueNonce(chainId: number): Promise<bigint>
  /**
   * allocatorData for an allocated transfer: the allocator signer's ECDSA over the Compact's EIP-712
   * digest (`keccak256(0x1901 ‖ DOMAIN_SEPARATOR ‖ claimHash)`) of `Compact` (one lock) or
   * `BatchCompact` (several), with arbiter = sponsor = the account.
   */
  signTransfer(parameters: {
    chainId: number
    account: Address
    nonce: bigint
    expires: bigint
    commitments: Commitment[]
    /** `allocatedBatchTransfer` (BatchCompact, even for one lock) rather than `allocatedTransfer` (Compact). */
    batch: boolean
  }): Promise<Hex>
}

/** Creates the allocator over the devnet chains' public clients. */
export function createAllocator(parameters: {
  signer: PrivateKeyAccount
  clients: Record<number, PublicClient<Transport, Chain>>
}): Allocator {
  const { signer, clients } = parameters
  const issued = new Set<string>()
  return {
    async issueNonce(chainId) {
      const client = clients[chainId]
      if (!client) throw new AllocatorNonceError(`No chain ${chainId}.`)
      for (let attempt = 0; attempt < 8; attempt++) {
        // 96 random bits above a zero high half: unique without coordination, far from Permit2-style bitmaps.
        const nonce = BigInt(`0x${randomBytes(12).toString('hex')}`)
        const key = `${chainId}:${nonce}`
        if (issued.has(key)) continue
        issued.add(key)
        const consumed = await client.readContract({
          address: addresses.compact,
          abi: artifacts.TheCompact.abi,
          functionName: 'hasConsumedAllocatorNonce',
          args: [nonce, addresses.allocator],
        })
        if (!consumed) return nonce
      }
      throw new AllocatorNonceError(`Could not find an unused allocator nonce on chain ${chainId}.`)
    },
    async signTransfer({ chainId, account, nonce, expires, commitments, batch }) {
      const [single, ...rest] = commitments
      if (!single || (!batch && rest.length > 0))
        throw new AllocatorNonceError('An allocated transfer has exactly one lock; a batch at least one.')
      const digest = !batch
        ? hashTypedData({
            domain: compactDomain(chainId),
            types: COMPACT_TYPES,
            primaryType: 'Compact',
            message: { arbiter: account, sponsor: account, nonce, expires, ...single },
          })
        : hashTypedData({
            domain: compactDomain(chainId),
            types: BATCH_COMPACT_TYPES,
            primaryType: 'BatchCompact',
            message: { arbiter: account, sponsor: account, nonce, expires, commitments },
          })
      return signer.sign({ hash: digest })
    },
  }
}
