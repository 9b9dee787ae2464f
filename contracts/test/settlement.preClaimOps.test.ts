import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import {
  type Address,
  concat,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  publicActions,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses } from '../addresses'
import { CallRecorder, IntentArbiter, IntentExecutor, Permit2 } from '../generated/artifacts'
import { mintAndApprove, placeContract, placeToken, send, startTestChain, type TestChain } from './helpers'

// The public SDK's Permit2 typed-data builder, so the test signs exactly what the SDK 1.x signs.
const require = createRequire(import.meta.url)
const sdkPermit2 = require(join(dirname(require.resolve('@rhinestone/sdk')), 'execution/permit2.js')) as {
  getTypedData(element: unknown, nonce: bigint, expires: bigint): { message: { mandate: Mandate } }
}
type Ops = { to: Address; value: string | bigint; data: Hex }[]
type Mandate = {
  target: {
    recipient: Address
    tokenOut: { token: Address; amount: bigint }[]
    targetChain: bigint
    fillExpiry: bigint
  }
  minGas: bigint
  originOps: { vt: Hex; ops: Ops }
  destOps: { vt: Hex; ops: Ops }
  q: Hex
}

const usdc: Address = '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'
const zeroVt = toHex(0, { size: 32 })
/** A lock id as the service writes it (a non-zero top byte), here only carrying the token. */
const idOf = (token: Address) => BigInt(concat(['0x0a0000000000000000000001', token]))
const sponsor = privateKeyToAccount(keccak256(toHex('preClaimOps.test sponsor')))

let chain: TestChain
let recorder: Address

beforeAll(async () => {
  chain = await startTestChain({ chainId: 10 })
  const [relayer] = chain.wallets
  await chain.client.setBalance({ address: sponsor.address, value: 10n ** 18n })
  await placeContract(chain.client, addresses.permit2, Permit2)
  await placeContract(chain.client, addresses.arbiter, IntentArbiter)
  await placeContract(chain.client, addresses.intentExecutor, IntentExecutor)
  await send(
    relayer!,
    relayer!.writeContract({
      address: addresses.arbiter,
      abi: IntentArbiter.abi,
      functionName: 'initialize',
      args: [relayer!.account.address],
    }),
  )
  await placeToken(chain, usdc, { name: 'USD Coin', symbol: 'USDC', decimals: 6 })
  const owner = createWalletClient({
    account: sponsor,
    chain: chain.chain,
    transport: http(chain.anvil.rpcUrl),
  }).extend(publicActions)
  await mintAndApprove({
    token: usdc,
    minter: relayer!,
    owner,
    amount: 10_000_000n,
    spender: addresses.permit2,
  })
  const deployed = await relayer!.waitForTransactionReceipt({
    hash: await relayer!.deployContract({
      abi: CallRecorder.abi,
      bytecode: CallRecorder.bytecode,
      args: [usdc],
    }),
  })
  recorder = deployed.contractAddress!
})

afterAll(async () => {
  await chain?.stop()
})

const read = (functionName: 'callCount' | 'callerAt' | 'dataAt' | 'balanceAt', args: bigint[] = []) =>
  // biome-ignore lint/suspicious/noExplicitAny: one helper over several view functions
  chain.client.readContract({ address: recorder, abi: CallRecorder.abi, functionName, args } as any)

const balanceOf = (who: Address) =>
  chain.client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [who] })

describe('IntentArbiter: pre-claim ops (preClaimOps = Mandate.originOps)', () => {
  it('runs them on the origin chain before the claim, once, and not when the signature does not cover them', async () => {
    const relayer = chain.wallets[0]!
    const note = encodeFunctionData({ abi: CallRecorder.abi, functionName: 'note', args: [sponsor.address] })
    const nonce = 7n
    const expires = (await chain.client.getBlock()).timestamp + 3600n
    const element = {
      arbiter: addresses.arbiter,
      chainId: '10',
      idsAndAmounts: [[String(idOf(usdc)), '3000000']],
      mandate: {
        recipient: sponsor.address,
        tokenOut: [[String(idOf(usdc)), '3000000']],
        destinationChainId: '8453',
        fillDeadline: '1900000000',
        minGas: '0',
        preClaimOps: { vt: zeroVt, ops: [{ to: recorder, value: '0', data: note }] },
        destinationOps: { vt: zeroVt, ops: [] },
        qualifier: { encodedVal: '0x01', settlementContext: { fundingMethod: 'PERMIT2' } },
      },
    }
    const td = sdkPermit2.getTypedData(element, nonce, expires)
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
    const signature = await sponsor.signTypedData(td as any)
    const m = td.message.mandate
    const mandate = (originOps: Ops) => ({
      ...m,
      originOps: { vt: m.originOps.vt, ops: originOps.map((o) => ({ ...o, value: BigInt(o.value) })) },
      destOps: { vt: m.destOps.vt, ops: [] },
    })
    const params = (originOps: Ops) => ({
      sponsor: sponsor.address,
      nonce,
      expires,
      idsAndAmounts: [[idOf(usdc), 3_000_000n]] as [bigint, bigint][],
      mandate: mandate(originOps),
      signature,
    })
    const errorOf = (p: ReturnType<typeof params>) =>
      chain.client
        .simulateContract({
          account: relayer.account,
          address: addresses.arbiter,
          abi: [
            ...IntentArbiter.abi,
            ...Permit2.abi.filter((i) => i.type === 'error' && i.name !== 'InvalidNonce'),
          ],
          functionName: 'claimPermit2',
          args: [p],
        })
        .then(
          () => 'no revert',
          // biome-ignore lint/suspicious/noExplicitAny: viem's ContractFunctionRevertedError
          (error: any) => error.walk((e: any) => e?.data?.errorName)?.data?.errorName as string | undefined,
        )

    // Ops the sponsor did not sign: the claim's signature check reverts them with it.
    expect(await errorOf(params([{ to: recorder, value: 0n, data: `${note}00` }]))).toBe('InvalidSigner')
    // Ops that fail (value the executor does not have, for a sponsor without code) revert the claim.
    expect(await errorOf(params([{ to: recorder, value: 1n, data: note }]))).toBe('PreClaimOpsFailed')
    // Nobody but the arbiter may have the executor run origin ops.
    await expect(
      chain.client.simulateContract({
        account: relayer.account,
        address: addresses.intentExecutor,
        abi: IntentExecutor.abi,
        functionName: 'executeOriginOps',
        args: [sponsor.address, { vt: zeroVt, ops: [{ to: recorder, value: 0n, data: note }] }],
      }),
    ).rejects.toThrow(/NotArbiter/)

    const before = await balanceOf(sponsor.address)
    await send(
      relayer,
      relayer.writeContract({
        address: addresses.arbiter,
        abi: IntentArbiter.abi,
        functionName: 'claimPermit2',
        args: [params(m.originOps.ops)],
      }),
    )
    expect(await read('callCount')).toBe(1n)
    // A sponsor without code: the executor makes the call; it saw the sponsor's balance before the claim.
    expect(await read('callerAt', [0n])).toBe(addresses.intentExecutor)
    expect(await read('dataAt', [0n])).toBe(note)
    expect(await read('balanceAt', [0n])).toBe(before)
    expect(await balanceOf(sponsor.address)).toBe(before - 3_000_000n)
    expect(await balanceOf(relayer.account.address)).toBe(3_000_000n)
  })
})
