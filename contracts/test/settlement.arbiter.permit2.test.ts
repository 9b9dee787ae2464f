import type { Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { addresses } from '../addresses'
import { DevnetERC20, IntentArbiter, Permit2 } from '../generated/artifacts'
import {
  arbiterAbi,
  mandateArg,
  relayer,
  revertName,
  sdkPermit2,
  sponsor,
  stranger,
  type TypedData,
  usdcOptimism,
  useArbiterChain,
} from './support/arbiterFixture'

// IntentArbiter: claims of Permit2-funded elements (the SDK's PermitBatchWitnessTransferFrom).
const fx = useArbiterChain()

describe('IntentArbiter: Permit2 claims', () => {
  beforeAll(async () => {
    await fx.testClient.setCode({ address: addresses.permit2, bytecode: Permit2.deployedBytecode })
    await fx.write(sponsor, usdcOptimism, DevnetERC20.abi, 'approve', [addresses.permit2, 2n ** 256n - 1n])
  })

  function permit2Params(td: TypedData, nonce: bigint, expires: bigint, amount: bigint, signature: Hex) {
    return {
      sponsor: sponsor.address,
      nonce,
      expires,
      idsAndAmounts: [[fx.lockId(usdcOptimism), amount]] as [bigint, bigint][],
      mandate: mandateArg(td.message.mandate),
      signature,
    }
  }

  async function claimPermit2Error(from: typeof relayer, params: ReturnType<typeof permit2Params>) {
    return revertName(
      fx.publicClient.simulateContract({
        account: from,
        address: addresses.arbiter,
        abi: arbiterAbi,
        functionName: 'claimPermit2',
        args: [params],
      }),
    )
  }

  it('verifies the unmodified SDK PermitBatchWitnessTransferFrom signature and pays the relayer', async () => {
    const nonce = ++fx.intentNonce
    const expires = (await fx.publicClient.getBlock()).timestamp + 3600n
    const e = fx.element(10, 70_000_000n)
    e.mandate.qualifier.settlementContext.fundingMethod = 'PERMIT2'
    const td = sdkPermit2.getTypedData(e, nonce, expires)
    expect(td.message.spender).toBe(addresses.arbiter)
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
    const signature = await sponsor.signTypedData(td as any)
    const params = permit2Params(td, nonce, expires, 70_000_000n, signature)

    expect(await claimPermit2Error(stranger, params)).toBe('NotRelayer')
    const before = await fx.usdcBalance(relayer.address)
    const { request } = await fx.publicClient.simulateContract({
      account: relayer,
      address: addresses.arbiter,
      abi: IntentArbiter.abi,
      functionName: 'claimPermit2',
      args: [params],
    })
    const receipt = await fx.publicClient.waitForTransactionReceipt({
      hash: await fx.walletOf(relayer).writeContract(request),
    })
    expect(receipt.status).toBe('success')
    expect((await fx.usdcBalance(relayer.address)) - before).toBe(70_000_000n)
    expect(await claimPermit2Error(relayer, params)).toBe('AlreadyClaimed')
  })

  it('rejects a Permit2 claim whose amount or Mandate differs from what the sponsor signed', async () => {
    const nonce = ++fx.intentNonce
    const expires = (await fx.publicClient.getBlock()).timestamp + 3600n
    const e = fx.element(10, 1_000_000n)
    const td = sdkPermit2.getTypedData(e, nonce, expires)
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
    const signature = await sponsor.signTypedData(td as any)
    const tooMuch = permit2Params(td, nonce, expires, 2_000_000n, signature)
    expect(await claimPermit2Error(relayer, tooMuch)).toBe('InvalidSigner')
    const otherMandate = permit2Params(td, nonce, expires, 1_000_000n, signature)
    otherMandate.mandate = { ...otherMandate.mandate, minGas: 1n }
    expect(await claimPermit2Error(relayer, otherMandate)).toBe('InvalidSigner')
    // The untouched claim still goes through.
    expect(await claimPermit2Error(relayer, permit2Params(td, nonce, expires, 1_000_000n, signature))).toBe(
      'no revert',
    )
  })
})
