import { encodeFunctionData, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { addresses } from '../addresses'
import { DevnetERC20, Multicall3 } from '../generated/artifacts'
import { placeContract, placeToken, startTestChain, type TestChain } from './helpers'

let chain: TestChain
const token = '0x0000000000000000000000000000000000070c3e' as const
const multicall = { address: addresses.multicall3, abi: Multicall3.abi } as const

beforeAll(async () => {
  chain = await startTestChain({ chainId: 1 })
  await placeContract(chain.client, addresses.multicall3, Multicall3)
  await placeToken(chain, token, { name: 'Test', symbol: 'TST', decimals: 6 })
})

afterAll(async () => {
  await chain?.stop()
})

describe('Multicall3', () => {
  test("viem's multicall (aggregate3) reads through it, with allowed failures", async () => {
    const results = await chain.client.multicall({
      multicallAddress: addresses.multicall3,
      contracts: [
        { address: token, abi: DevnetERC20.abi, functionName: 'symbol' },
        { address: token, abi: DevnetERC20.abi, functionName: 'decimals' },
        { ...multicall, functionName: 'getEthBalance', args: [chain.wallets[0]!.account.address] },
        // A call that reverts: reported as a failure, the rest still succeed.
        { address: token, abi: DevnetERC20.abi, functionName: 'initialize', args: ['a', 'b', 1, token] },
      ],
    })
    expect(results[0]).toEqual({ status: 'success', result: 'TST' })
    expect(results[1]).toEqual({ status: 'success', result: 6 })
    expect(results[2]!.status).toBe('success')
    expect((results[2]!.result as bigint) > parseEther('9000')).toBe(true)
    expect(results[3]!.status).toBe('failure')
  })

  test('aggregate, tryAggregate and the block getters', async () => {
    const call = {
      target: token,
      callData: encodeFunctionData({ abi: DevnetERC20.abi, functionName: 'decimals' }),
    }
    const bad = {
      target: token,
      callData: encodeFunctionData({
        abi: DevnetERC20.abi,
        functionName: 'initialize',
        args: ['a', 'b', 1, token],
      }),
    }
    const block = await chain.client.getBlock()
    // aggregate and tryAggregate are payable, so they are simulated rather than read.
    const {
      result: [blockNumber, data],
    } = await chain.client.simulateContract({ ...multicall, functionName: 'aggregate', args: [[call]] })
    expect(blockNumber).toBeGreaterThanOrEqual(block.number)
    expect(BigInt(data[0]!)).toBe(6n)
    await expect(
      chain.client.simulateContract({ ...multicall, functionName: 'aggregate', args: [[call, bad]] }),
    ).rejects.toThrow('CallFailed')
    const { result: tried } = await chain.client.simulateContract({
      ...multicall,
      functionName: 'tryAggregate',
      args: [false, [call, bad]],
    })
    expect(tried.map((r) => r.success)).toEqual([true, false])
    expect(
      await chain.client.readContract({ ...multicall, functionName: 'getBlockNumber' }),
    ).toBeGreaterThanOrEqual(block.number)
    expect(
      await chain.client.readContract({ ...multicall, functionName: 'getCurrentBlockTimestamp' }),
    ).toBeGreaterThanOrEqual(block.timestamp)
    expect(await chain.client.readContract({ ...multicall, functionName: 'getChainId' })).toBe(1n)
  })
})
