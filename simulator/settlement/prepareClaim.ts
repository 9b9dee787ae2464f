import { addresses } from '../../contracts/addresses'
import { encodeCall } from '../../lib/encodeCall'
import type { SignedIntent } from '../intents/types'
import { arbiterAbi } from './abis'
import {
  allocatorDigest,
  compactClaimArg,
  compactHashes,
  fundingMethodOf,
  permit2ClaimArg,
} from './contractArgs'
import { getCompactDomainSeparator } from './getCompactDomainSeparator'
import type { PreparedCall, SettlementContext } from './types'

/**
 * The relayer's claim of element `index` on its origin chain: `claimCompact` with the
 * allocator's signature over that chain's Compact domain, or `claimPermit2`.
 */
export async function prepareClaim(
  context: Pick<SettlementContext, 'devnet' | 'domainSeparators'>,
  signed: SignedIntent,
  index: number,
): Promise<PreparedCall> {
  const { devnet } = context
  const element = signed.intentOp.elements[index]!
  const chainId = Number(element.chainId)
  const { publicClient } = devnet.chain(chainId)
  const account = devnet.keys.relayer.account
  const prepared = (data: PreparedCall['data'], simulate: PreparedCall['simulate']): PreparedCall => ({
    chainId,
    to: addresses.arbiter,
    data,
    value: 0n,
    simulate,
  })
  if (fundingMethodOf(element) === 'COMPACT') {
    const { claimHash } = compactHashes(signed.intentOp)
    const allocatorData = await devnet.keys.allocator.account.sign({
      hash: allocatorDigest(await getCompactDomainSeparator(context, chainId), claimHash),
    })
    const call = {
      account,
      address: addresses.arbiter,
      abi: arbiterAbi,
      functionName: 'claimCompact',
      args: [compactClaimArg(signed, index, allocatorData)],
    } as const
    return prepared(encodeCall(call), async () => void (await publicClient.simulateContract(call)))
  }
  const call = {
    account,
    address: addresses.arbiter,
    abi: arbiterAbi,
    functionName: 'claimPermit2',
    args: [permit2ClaimArg(signed, index)],
  } as const
  return prepared(encodeCall(call), async () => void (await publicClient.simulateContract(call)))
}
