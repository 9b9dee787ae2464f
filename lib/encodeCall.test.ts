import { encodeFunctionData, erc20Abi, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { Multicall3 } from '../contracts/generated/artifacts'
import { encodeCall } from './encodeCall'

const account = '0x00000000000000000000000000000000000000a1'
const spender = '0x00000000000000000000000000000000000000b2'

describe('encodeCall', () => {
  it('encodes what viem encodes, on the first call and on later ones', () => {
    const cases = [
      { abi: erc20Abi, functionName: 'balanceOf', args: [account] },
      { abi: erc20Abi, functionName: 'allowance', args: [account, spender] },
      { abi: erc20Abi, functionName: 'allowance', args: [spender, account] },
      { abi: Multicall3.abi, functionName: 'getBasefee' },
      {
        abi: Multicall3.abi,
        functionName: 'aggregate3',
        args: [[{ target: account, allowFailure: true, callData: '0x70a08231' }]],
      },
    ] as const
    for (let round = 0; round < 2; round++) {
      for (const parameters of cases) {
        expect(encodeCall(parameters as never)).toBe(encodeFunctionData(parameters as never))
      }
    }
    expect(encodeCall({ abi: erc20Abi, functionName: 'balanceOf', args: [account] })).toBe(
      `0x70a08231${account.slice(2).padStart(64, '0')}`,
    )
  })

  it('keeps viem’s choice among overloads, by the arguments of each call', () => {
    const overloaded = parseAbi(['function f(uint256 a)', 'function f(address a, uint256 b)'])
    const one = { abi: overloaded, functionName: 'f', args: [5n] } as const
    const two = { abi: overloaded, functionName: 'f', args: [account, 5n] } as const
    expect(encodeCall(one)).toBe(encodeFunctionData(one))
    expect(encodeCall(two)).toBe(encodeFunctionData(two))
    expect(encodeCall(one).slice(0, 10)).not.toBe(encodeCall(two).slice(0, 10))
  })

  it('refuses what viem refuses: an unknown function, bad arguments', () => {
    expect(() => encodeCall({ abi: erc20Abi, functionName: 'nope' as never, args: [] as never })).toThrow(
      /not found/i,
    )
    expect(() => encodeCall({ abi: erc20Abi, functionName: 'balanceOf', args: ['0x12' as never] })).toThrow(
      /address/i,
    )
    const withTuple = parseAbi(['function claim((address sponsor, uint256 amount) claim)'])
    expect(() => encodeCall({ abi: withTuple, functionName: 'claim', args: [{} as never] })).toThrow()
  })
})
