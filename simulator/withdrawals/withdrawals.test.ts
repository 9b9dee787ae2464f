// Own devnet, not the shared one: the in-process withdrawal service signs with the Devnet object's allocator key and clock.
import { type Address, createWalletClient, erc20Abi, http, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { addresses, tokensByChain } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { BatchWithdrawalResponse, WithdrawalResponse } from '../../spec/index'
import { type Devnet, startDevnet } from '../devnet/startDevnet'
import { buildApp } from '../http/app'
import type { ApiError } from '../http/errorCodes'
import { toApiErrorOfDomain } from '../http/errorMapping'
import { stubServices } from '../http/testing/stubServices'
import { createAllocator } from '../signing/allocator'
import type { WithdrawalService } from './types'
import { createWithdrawalService } from './withdrawals'

let devnet: Devnet
let service: WithdrawalService
const chainId = 8453
const token = (symbol: string) => tokensByChain[chainId]?.find((t) => t.symbol === symbol)?.address as Address

beforeAll(async () => {
  devnet = await startDevnet({ chainIds: [chainId], accountCount: 3 })
  const clients = Object.fromEntries(devnet.chains.map((c) => [c.chainId, c.publicClient]))
  service = createWithdrawalService({
    allocator: createAllocator({ signer: devnet.keys.allocator.account, clients }),
    clients,
    clock: devnet,
  })
}, 120_000)
afterAll(async () => {
  await devnet?.stop()
})

const sponsor = () => devnet.keys.accounts[0] as (typeof devnet.keys.accounts)[number]
const wallet = () => {
  const chain = devnet.chain(chainId)
  return createWalletClient({ chain: chain.chain, transport: http(chain.rpcUrl), account: sponsor().account })
}
const balanceOf = (t: Address, who: Address) =>
  devnet
    .chain(chainId)
    .publicClient.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [who] })

describe('withdrawals', () => {
  test('allocatedTransfer with the returned data pays the recipient the underlying token; a second use reverts', async () => {
    const recipient = '0x000000000000000000000000000000000000bEEF'
    const amount = parseUnits('25', 6)
    const response = await service.withdraw({
      account: sponsor().address,
      chainId,
      tokenAddress: token('USDC'),
      amount: amount.toString(),
      recipient,
    })
    expect(WithdrawalResponse.safeParse(response).success).toBe(true)
    expect(typeof response.transferDetails.id).toBe('string')
    const d = response.transferDetails
    const transfer = {
      allocatorData: response.allocatorData as `0x${string}`,
      nonce: BigInt(d.nonce),
      expires: BigInt(d.expires),
      id: BigInt(d.id),
      recipients: d.recipients.map((r) => ({ claimant: BigInt(r.claimant), amount: BigInt(r.amount) })),
    }
    const before = await balanceOf(token('USDC'), recipient)
    const { request } = await devnet.chain(chainId).publicClient.simulateContract({
      account: sponsor().account,
      address: addresses.compact,
      abi: artifacts.TheCompact.abi,
      functionName: 'allocatedTransfer',
      args: [transfer],
    })
    const hash = await wallet().writeContract(request)
    const receipt = await devnet.chain(chainId).publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect((await balanceOf(token('USDC'), recipient)) - before).toBe(amount)
    await expect(
      devnet.chain(chainId).publicClient.simulateContract({
        account: sponsor().account,
        address: addresses.compact,
        abi: artifacts.TheCompact.abi,
        functionName: 'allocatedTransfer',
        args: [transfer],
      }),
    ).rejects.toThrow()
  })

  test('allocatedBatchTransfer with the returned data pays every recipient', async () => {
    const a = '0x000000000000000000000000000000000000a001'
    const b = '0x000000000000000000000000000000000000b002'
    const response = await service.batchWithdraw({
      account: sponsor().address,
      chainId,
      transfers: [
        { recipient: a, tokenAddress: token('USDC'), amount: '1000000' },
        { recipient: b, tokenAddress: token('USDC'), amount: '2000000' },
        { recipient: b, tokenAddress: token('WETH'), amount: parseUnits('1', 18).toString() },
      ],
    })
    expect(BatchWithdrawalResponse.safeParse(response).success).toBe(true)
    const d = response.batchTransferDetails
    const args = {
      allocatorData: response.allocatorData as `0x${string}`,
      nonce: BigInt(d.nonce),
      expires: BigInt(d.expires),
      transfers: d.transfers.map((t) => ({
        id: BigInt(t.id),
        portions: t.portions.map((p) => ({ claimant: BigInt(p.claimant), amount: BigInt(p.amount) })),
      })),
    }
    const { request } = await devnet.chain(chainId).publicClient.simulateContract({
      account: sponsor().account,
      address: addresses.compact,
      abi: artifacts.TheCompact.abi,
      functionName: 'allocatedBatchTransfer',
      args: [args],
    })
    const hash = await wallet().writeContract(request)
    expect((await devnet.chain(chainId).publicClient.waitForTransactionReceipt({ hash })).status).toBe(
      'success',
    )
    expect(await balanceOf(token('USDC'), a)).toBe(1_000_000n)
    expect(await balanceOf(token('USDC'), b)).toBe(2_000_000n)
    expect(await balanceOf(token('WETH'), b)).toBe(parseUnits('1', 18))
  })

  test('an amount over the lock balance is refused before any signature; nonces are never reused', async () => {
    const error = (await service
      .withdraw({
        account: sponsor().address,
        chainId,
        tokenAddress: token('USDC'),
        amount: parseUnits('1000000', 6).toString(),
        recipient: sponsor().address,
      })
      .catch(toApiErrorOfDomain)) as ApiError
    expect(error.statusCode).toBe(422)
    expect(error.message).toContain('exceeds the locked balance')
    const nonces = new Set<string>()
    for (let i = 0; i < 5; i++) {
      const r = await service.withdraw({
        account: sponsor().address,
        chainId,
        tokenAddress: token('USDC'),
        amount: '1',
        recipient: sponsor().address,
      })
      nonces.add(String(r.transferDetails.nonce))
    }
    expect(nonces.size).toBe(5)
  })

  test('POST /withdrawals through the app', async () => {
    const app = await buildApp({ apiKeys: ['k'] }, stubServices({ clock: devnet, withdrawals: service }))
    const ok = await app.inject({
      method: 'POST',
      url: '/withdrawals',
      headers: { 'x-api-key': 'k' },
      payload: {
        account: sponsor().address,
        chainId,
        tokenAddress: token('USDC'),
        amount: 5,
        recipient: sponsor().address,
      },
    })
    expect(ok.statusCode).toBe(200)
    const bad = await app.inject({
      method: 'POST',
      url: '/withdrawals',
      headers: { 'x-api-key': 'k' },
      payload: {
        account: sponsor().address,
        chainId: 10,
        tokenAddress: token('USDC'),
        amount: 5,
        recipient: sponsor().address,
      },
    })
    expect(bad.statusCode).toBe(400)
    // The chain is what is wrong, and the answer says so (not "unknown token").
    expect(bad.json().errors[0].message).toMatch(/Chain 10 is not run by this devnet/)
    await app.close()
  })
})
