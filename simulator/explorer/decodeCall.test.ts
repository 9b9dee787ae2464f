import { encodeFunctionData, erc20Abi, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { addresses, tokensByChain } from '../../contracts/addresses'
import { Allocator } from '../../contracts/generated/artifacts'
import { decodeCall, toJsonValue } from './decodeCall'

describe('decodeCall', () => {
  it('decodes a call to one of our contracts by its ABI, arguments by name, integers as strings', () => {
    const usdc = tokensByChain[8453]!.find((t) => t.symbol === 'USDC')!
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [addresses.filler, 1_000_000n],
    })
    expect(decodeCall(8453, usdc.address, data)).toEqual({
      contract: 'USDC',
      functionName: 'transfer',
      args: [
        { name: 'to', type: 'address', value: addresses.filler },
        { name: 'amount', type: 'uint256', value: '1000000' },
      ],
    })
  })

  it('names the allocator and its function', () => {
    const data = encodeFunctionData({ abi: Allocator.abi, functionName: 'COMPACT' })
    expect(decodeCall(10, addresses.allocator, data)).toMatchObject({
      contract: 'allocator',
      functionName: 'COMPACT',
    })
  })

  it('answers undefined for an address that is not ours, or data that matches no function', () => {
    expect(decodeCall(8453, zeroAddress, '0xa9059cbb')).toBeUndefined()
    expect(decodeCall(8453, addresses.filler, '0xdeadbeef')).toBeUndefined()
  })

  it('turns nested bigints into strings', () => {
    expect(toJsonValue({ a: [1n, { b: 2n }], c: 'x' })).toEqual({ a: ['1', { b: '2' }], c: 'x' })
  })
})
