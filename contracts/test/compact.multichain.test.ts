import { hashStruct, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { addresses } from '../addresses'
import { claimantOf, lockIdOf, send } from './helpers'
import {
  abi,
  compact,
  domain,
  expectRevert,
  mandate,
  mandateTypes,
  multichainTypes,
  recipient,
  usdc,
  useCompactChain,
  witnessTypestring,
} from './support/compactFixture'

// The Compact v1: multichain batch claims on the notarized chain and exogenously, and the SDK 1.x's
// legacy Compact domain.
const fx = useCompactChain()

describe('multichain claims', () => {
  // Two elements: chain 10 (this Anvil) and chain 8453 (elsewhere); the same sponsor signature
  // is claimed on the notarized chain (elements[0]) and, exogenously, on any other.
  async function signMultichain(
    nonce: bigint,
    expires: bigint,
    order: 'here-first' | 'here-second',
    verifyingContract?: `0x${string}`,
  ) {
    const here = {
      arbiter: fx.arbiter.account.address,
      chainId: BigInt(fx.chain.chain.id),
      commitments: [{ lockTag: fx.tag, token: usdc, amount: 50n }],
      mandate: mandate(50n),
    }
    const there = {
      arbiter: fx.stranger.account.address,
      chainId: 8453n,
      commitments: [{ lockTag: fx.tag, token: zeroAddress, amount: 9n }],
      mandate: mandate(9n),
    }
    const elements = order === 'here-first' ? [here, there] : [there, here]
    const message = { sponsor: fx.sponsor.account.address, nonce, expires, elements }
    const notarizedChainId = Number(elements[0]!.chainId)
    const sponsorSignature = await fx.sponsor.signTypedData({
      domain: verifyingContract
        ? { ...domain(notarizedChainId), verifyingContract }
        : domain(notarizedChainId),
      types: multichainTypes,
      primaryType: 'MultichainCompact',
      message,
    })
    const allocatorData = await fx.allocatorSign(multichainTypes, message)
    const thereHash = hashStruct({ types: multichainTypes, primaryType: 'Element', data: there })
    const claimHash = hashStruct({ types: multichainTypes, primaryType: 'MultichainCompact', data: message })
    const common = {
      allocatorData,
      sponsorSignature,
      sponsor: fx.sponsor.account.address,
      nonce,
      expires,
      witness: hashStruct({ types: mandateTypes, primaryType: 'Mandate', data: here.mandate }),
      witnessTypestring,
      additionalChains: [thereHash],
      claims: [
        {
          id: fx.usdcId,
          allocatedAmount: 50n,
          portions: [{ claimant: claimantOf('0x0', recipient), amount: 50n }],
        },
      ],
    }
    return { common, claimHash, notarizedChainId }
  }

  test('batchMultichainClaim on the notarized chain: claim hash over all elements, in signed order', async () => {
    const { common, claimHash } = await signMultichain(20n, (await fx.now()) + 600n, 'here-first')
    const { result, request } = await fx.arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'batchMultichainClaim',
      args: [common],
    })
    expect(result).toBe(claimHash)
    await send(fx.arbiter, fx.arbiter.writeContract(request))
    expect(await fx.tokenBalance(usdc, recipient)).toBe(50n)
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchMultichainClaim',
        args: [common],
      }),
      'InvalidNonce',
    )
  })

  test('exogenousBatchClaim on another chain: element inserted after additionalChains[chainIndex]', async () => {
    const { common, claimHash, notarizedChainId } = await signMultichain(
      21n,
      (await fx.now()) + 600n,
      'here-second',
    )
    const args = { ...common, chainIndex: 0n, notarizedChainId: BigInt(notarizedChainId) }
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'exogenousBatchClaim',
        args: [{ ...args, notarizedChainId: 1n }],
      }),
      'InvalidSignature',
    )
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'exogenousBatchClaim',
        args: [{ ...args, chainIndex: 1n }],
      }),
      'InvalidChainIndex',
    )
    const { result, request } = await fx.arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'exogenousBatchClaim',
      args: [args],
    })
    expect(result).toBe(claimHash)
    await send(fx.arbiter, fx.arbiter.writeContract(request))
    expect(await fx.tokenBalance(usdc, recipient)).toBe(50n)
    // A notarized-chain claim of the same signature computes another hash (wrong order), so it fails.
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchMultichainClaim',
        args: [common],
      }),
      'InvalidSignature',
    )
  })

  test('a compact signed for the legacy Compact address (as the SDK 1.x signs) is accepted, any other address is not', async () => {
    const legacy = await signMultichain(23n, (await fx.now()) + 600n, 'here-first', addresses.compactLegacy)
    await send(
      fx.arbiter,
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchMultichainClaim',
        args: [legacy.common],
      }),
    )
    expect(await fx.tokenBalance(usdc, recipient)).toBe(50n)
    const other = await signMultichain(24n, (await fx.now()) + 600n, 'here-first', `0x${'12'.repeat(20)}`)
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchMultichainClaim',
        args: [other.common],
      }),
      'InvalidSignature',
    )
  })

  test('chain-specific locks cannot be claimed multichain', async () => {
    const { common } = await signMultichain(22n, (await fx.now()) + 600n, 'here-first')
    const scoped = { ...common, claims: [{ ...common.claims[0]!, id: lockIdOf(fx.chainTag, usdc) }] }
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchMultichainClaim',
        args: [scoped],
      }),
      'InvalidScope',
    )
  })
})
