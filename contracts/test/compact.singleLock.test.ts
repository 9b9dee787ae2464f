import { hashStruct } from 'viem'
import { describe, expect, test } from 'vitest'
import { claimantOf, send } from './helpers'
import {
  abi,
  allocatorKey,
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

// The Compact v1: single-lock claims (claim, multichainClaim, exogenousClaim).
const fx = useCompactChain()

describe('single-lock claims', () => {
  const compactTypes = {
    Compact: [
      { name: 'arbiter', type: 'address' },
      { name: 'sponsor', type: 'address' },
      { name: 'nonce', type: 'uint256' },
      { name: 'expires', type: 'uint256' },
      { name: 'lockTag', type: 'bytes12' },
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'mandate', type: 'Mandate' },
    ],
    ...mandateTypes,
  } as const

  test('claim: the Compact type with a Mandate witness', async () => {
    const expires = (await fx.now()) + 600n
    const m = mandate(30n)
    const message = {
      arbiter: fx.arbiter.account.address,
      sponsor: fx.sponsor.account.address,
      nonce: 30n,
      expires,
      lockTag: fx.tag,
      token: usdc,
      amount: 30n,
      mandate: m,
    }
    const typed = {
      domain: domain(fx.chain.chain.id),
      types: compactTypes,
      primaryType: 'Compact',
      message,
    } as const
    const payload = {
      allocatorData: await allocatorKey.signTypedData(typed),
      sponsorSignature: await fx.sponsor.signTypedData(typed),
      sponsor: fx.sponsor.account.address,
      nonce: 30n,
      expires,
      witness: hashStruct({ types: mandateTypes, primaryType: 'Mandate', data: m }),
      witnessTypestring,
      id: fx.usdcId,
      allocatedAmount: 30n,
      claimants: [{ claimant: claimantOf('0x0', recipient), amount: 30n }],
    }
    const { result, request } = await fx.arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'claim',
      args: [payload],
    })
    expect(result).toBe(hashStruct({ types: compactTypes, primaryType: 'Compact', data: message }))
    await send(fx.arbiter, fx.arbiter.writeContract(request))
    expect(await fx.tokenBalance(usdc, recipient)).toBe(30n)
    await expectRevert(
      fx.arbiter.writeContract({ address: compact, abi, functionName: 'claim', args: [payload] }),
      'InvalidNonce',
    )
  })

  test('multichainClaim and exogenousClaim: one lock per element', async () => {
    const expires = (await fx.now()) + 600n
    const here = {
      arbiter: fx.arbiter.account.address,
      chainId: BigInt(fx.chain.chain.id),
      commitments: [{ lockTag: fx.tag, token: usdc, amount: 7n }],
      mandate: mandate(7n),
    }
    const there = {
      arbiter: fx.arbiter.account.address,
      chainId: 1n,
      commitments: [{ lockTag: fx.tag, token: usdc, amount: 8n }],
      mandate: mandate(8n),
    }
    const sign = async (nonce: bigint, elements: (typeof here)[]) => {
      const message = { sponsor: fx.sponsor.account.address, nonce, expires, elements }
      return {
        sponsorSignature: await fx.sponsor.signTypedData({
          domain: domain(Number(elements[0]!.chainId)),
          types: multichainTypes,
          primaryType: 'MultichainCompact',
          message,
        }),
        allocatorData: await fx.allocatorSign(multichainTypes, message),
        claimHash: hashStruct({ types: multichainTypes, primaryType: 'MultichainCompact', data: message }),
      }
    }
    const base = {
      sponsor: fx.sponsor.account.address,
      expires,
      witness: hashStruct({ types: mandateTypes, primaryType: 'Mandate', data: here.mandate }),
      witnessTypestring,
      additionalChains: [hashStruct({ types: multichainTypes, primaryType: 'Element', data: there })],
      id: fx.usdcId,
      allocatedAmount: 7n,
      claimants: [{ claimant: claimantOf(fx.tag, recipient), amount: 7n }],
    }
    const first = await sign(31n, [here, there])
    const notarized = {
      ...base,
      nonce: 31n,
      sponsorSignature: first.sponsorSignature,
      allocatorData: first.allocatorData,
    }
    const a = await fx.arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'multichainClaim',
      args: [notarized],
    })
    expect(a.result).toBe(first.claimHash)
    await send(fx.arbiter, fx.arbiter.writeContract(a.request))
    const second = await sign(32n, [there, here])
    const exogenous = {
      ...base,
      nonce: 32n,
      sponsorSignature: second.sponsorSignature,
      allocatorData: second.allocatorData,
      chainIndex: 0n,
      notarizedChainId: 1n,
    }
    const b = await fx.arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'exogenousClaim',
      args: [exogenous],
    })
    expect(b.result).toBe(second.claimHash)
    await send(fx.arbiter, fx.arbiter.writeContract(b.request))
    expect(await fx.balance(recipient, fx.usdcId)).toBe(14n)
  })
})
