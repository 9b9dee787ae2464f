import {
  type Address,
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MULTICHAIN_COMPACT_TYPES, PERMIT_BATCH_WITNESS_TYPES } from '../../spec'
import { addresses } from '../addresses'
import { DevnetERC20, IntentExecutor, IntentFiller } from '../generated/artifacts'
import { mintAndApprove, placeContract, placeToken, send, startTestChain, type TestChain } from './helpers'

/**
 * IntentFiller.fillMandate: destination ops authorized by the sponsor's ORIGIN signature (what the
 * public SDK 1.x sends as its destination signature), verified on the destination by the
 * IntentExecutor over the Mandate it fills, for a MultichainCompact (both Compact domains) and a
 * Permit2 batch witness. Forged signatures, ops other than the signed ones, and direct calls revert.
 */
const sponsor = privateKeyToAccount(keccak256(toHex('fillMandate.test sponsor')))
const forger = privateKeyToAccount(keccak256(toHex('fillMandate.test forger')))
const third: Address = '0x000000000000000000000000000000000000bEEF'
const usdc: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const lockTag = '0x800000000000000000a110ca' as Hex
const zeroVt = toHex(0, { size: 32 })
const abi = [...IntentFiller.abi, ...IntentExecutor.abi.filter((i) => i.type === 'error')]
let chain: TestChain
let nonce = 1000n

beforeAll(async () => {
  chain = await startTestChain({ chainId: 8453 })
  await placeContract(chain.client, addresses.filler, IntentFiller)
  await placeContract(chain.client, addresses.intentExecutor, IntentExecutor)
  await placeToken(chain, usdc, { name: 'USD Coin', symbol: 'USDC', decimals: 6 })
  const relayer = chain.wallets[0]!
  await mintAndApprove({
    token: usdc,
    minter: relayer,
    owner: relayer,
    amount: 10n ** 12n,
    spender: addresses.filler,
  })
}, 60_000)

afterAll(async () => {
  await chain?.stop()
})

/** One intent's Mandate (sponsor = recipient: an EOA) moving 5 of the 20 delivered USDC onward. */
function intent(kind: 0 | 1, sentOn = 5n) {
  nonce += 1n
  const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [third, sentOn] })
  const mandate = {
    target: {
      recipient: sponsor.address,
      tokenOut: [{ token: usdc, amount: 20n }],
      targetChain: 8453n,
      fillExpiry: 2n ** 40n,
    },
    minGas: 100_000n,
    originOps: { vt: zeroVt, ops: [] as { to: Address; value: bigint; data: Hex }[] },
    destOps: { vt: zeroVt, ops: [{ to: usdc, value: 0n, data: transfer }] },
    q: keccak256('0x'),
  }
  const id = BigInt(`${lockTag}${usdc.slice(2)}`)
  const expires = 2n ** 40n + 3600n
  const auth = {
    kind,
    domainChainId: 10n,
    expires,
    arbiter: addresses.arbiter,
    elementChainId: 10n,
    idsAndAmounts: [[id, 21n]] as [bigint, bigint][],
    elementIndex: 0n,
    otherElements: [] as Hex[],
  }
  const typedData =
    kind === 0
      ? ({
          domain: {
            name: 'The Compact',
            version: '1',
            chainId: 10,
            verifyingContract: addresses.compactLegacy,
          },
          types: MULTICHAIN_COMPACT_TYPES,
          primaryType: 'MultichainCompact',
          message: {
            sponsor: sponsor.address,
            nonce,
            expires,
            elements: [
              {
                arbiter: addresses.arbiter,
                chainId: 10n,
                commitments: [{ lockTag, token: usdc, amount: 21n }],
                mandate,
              },
            ],
          },
        } as const)
      : ({
          domain: { name: 'Permit2', chainId: 10, verifyingContract: addresses.permit2 },
          types: PERMIT_BATCH_WITNESS_TYPES,
          primaryType: 'PermitBatchWitnessTransferFrom',
          message: {
            permitted: [{ token: usdc, amount: 21n }],
            spender: addresses.arbiter,
            nonce,
            deadline: expires,
            mandate,
          },
        } as const)
  return { mandate, auth, typedData, nonce }
}

async function fillMandate(i: ReturnType<typeof intent>, signature: Hex, mandate = i.mandate) {
  const relayer = chain.wallets[0]!
  return relayer.simulateContract({
    address: addresses.filler,
    abi,
    functionName: 'fillMandate',
    args: [
      sponsor.address,
      i.nonce,
      mandate,
      { executor: addresses.intentExecutor, authorization: i.auth, signature },
    ],
  })
}

const revertName = (error: unknown) => {
  const data = (error as { cause?: { data?: { errorName?: string; args?: unknown[] } } }).cause?.data
  if (data?.errorName !== 'DestinationOpsFailed') return data?.errorName
  return decodeErrorResult({ abi: IntentExecutor.abi, data: data.args?.[0] as Hex }).errorName
}

const balance = (owner: Address) =>
  chain.client.readContract({ address: usdc, abi: DevnetERC20.abi, functionName: 'balanceOf', args: [owner] })

describe('IntentFiller.fillMandate', () => {
  it.each([
    ['a MultichainCompact (legacy Compact domain, as the SDK signs)', 0],
    ['a Permit2 batch witness', 1],
  ] as const)(
    'runs the destination ops of %s signed by an EOA, with the delivered tokens',
    async (_, kind) => {
      const i = intent(kind)
      const signature = await sponsor.signTypedData(i.typedData as never)
      const before = { sponsor: await balance(sponsor.address), third: await balance(third) }
      const { request } = await fillMandate(i, signature)
      await send(chain.wallets[0]!, chain.wallets[0]!.writeContract(request))
      expect(await balance(third)).toBe(before.third + 5n)
      expect(await balance(sponsor.address)).toBe(before.sponsor + 15n)
      expect(await balance(addresses.intentExecutor)).toBe(0n)
      expect(
        await chain.client.readContract({
          address: addresses.intentExecutor,
          abi: IntentExecutor.abi,
          functionName: 'isNonceUsed',
          args: [sponsor.address, i.nonce],
        }),
      ).toBe(true)
    },
  )

  it('accepts a compact signed under The Compact v1 domain too', async () => {
    const i = intent(0)
    const typedData = {
      ...i.typedData,
      domain: { ...i.typedData.domain, verifyingContract: addresses.compact },
    }
    const { request } = await fillMandate(i, await sponsor.signTypedData(typedData as never))
    await send(chain.wallets[0]!, chain.wallets[0]!.writeContract(request))
  })

  it('reverts InvalidSignature for a forged signature', async () => {
    const i = intent(1)
    const error = await fillMandate(i, await forger.signTypedData(i.typedData as never)).catch((e) => e)
    expect(revertName(error)).toBe('InvalidSignature')
  })

  it('reverts InvalidSignature when the ops differ from the signed Mandate', async () => {
    const i = intent(0)
    const signature = await sponsor.signTypedData(i.typedData as never)
    const other = intent(0, 19n)
    const error = await fillMandate(i, signature, { ...i.mandate, destOps: other.mandate.destOps }).catch(
      (e) => e,
    )
    expect(revertName(error)).toBe('InvalidSignature')
  })

  it('executeMandateOps is the filler’s alone', async () => {
    const i = intent(1)
    const signature = await sponsor.signTypedData(i.typedData as never)
    const error = await chain.wallets[1]!.simulateContract({
      address: addresses.intentExecutor,
      abi: IntentExecutor.abi,
      functionName: 'executeMandateOps',
      args: [sponsor.address, i.nonce, i.mandate, i.auth, signature],
    }).catch((e) => e)
    expect((error as { cause?: { data?: { errorName?: string } } }).cause?.data?.errorName).toBe('NotFiller')
  })
})
