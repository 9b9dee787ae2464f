import type { Hex } from 'viem'
import { afterAll, beforeAll } from 'vitest'
import { addresses } from '../../../contracts/addresses'
import * as artifacts from '../../../contracts/generated/artifacts'
import type { IntentOp } from '../../../spec'
import { type Devnet, startDevnet } from '../../devnet/startDevnet'
import type { VersionedQuoting } from '../../http/testing/versionedQuoting'
import { allocatorDigest, compactClaimArg, compactHashes } from '../../settlement/contractArgs'
import type { QuotingServiceInstance } from '../createQuotingService'
import { createTestQuoting } from './createTestQuoting'
import { routeRequests, token } from './routeRequests'

/** USDC's address on a chain. */
export const USDC = (chainId: number) => token(chainId, 'USDC')

/**
 * The quoting tests' own devnet (chains 1 and 8453, four funded accounts) and the quoting service
 * alone on it (createTestQuoting), started in the calling file's beforeAll and stopped in its
 * afterAll (read `devnet` and `quoting` inside tests), with `account(i)`, a route `request` and
 * `dryRunCompactClaim`.
 */
export function useQuotingDevnet() {
  let devnet: Devnet
  let quoting: QuotingServiceInstance & VersionedQuoting
  beforeAll(async () => {
    devnet = await startDevnet({ chainIds: [1, 8453], accountCount: 4 })
    quoting = createTestQuoting({ chains: devnet.chains, server: devnet.keys.server.account, clock: devnet })
  }, 120_000)
  afterAll(async () => {
    await devnet?.stop()
  })

  /** The Compact claim the relayer would send for element `index` (its own argument builders), dry-run against the arbiter. */
  async function dryRunCompactClaim(intentOp: IntentOp, signature: Hex, index: number) {
    const element = intentOp.elements[index] as IntentOp['elements'][number]
    const chain = devnet.chain(Number(element.chainId))
    const separator = await chain.publicClient.readContract({
      address: addresses.compact,
      abi: artifacts.TheCompact.abi,
      functionName: 'DOMAIN_SEPARATOR',
    })
    const allocatorData = await devnet.keys.allocator.account.sign({
      hash: allocatorDigest(separator, compactHashes(intentOp).claimHash),
    })
    // The same signature for every element: a MultichainCompact is signed once.
    const originSignatures = intentOp.elements.map(() => signature)
    const signed = { intentOp, originSignatures, destinationSignature: signature, setupOps: [] }
    return chain.publicClient.simulateContract({
      account: devnet.keys.relayer.account,
      address: addresses.arbiter,
      abi: artifacts.IntentArbiter.abi,
      functionName: 'claimCompact',
      args: [compactClaimArg(signed, index, allocatorData)],
    })
  }

  return {
    get devnet() {
      return devnet
    },
    get quoting() {
      return quoting
    },
    ...routeRequests(() => devnet),
    dryRunCompactClaim,
  }
}
