import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { tokensByChain } from '../addresses'
import { DevnetERC20, WETH } from '../generated/artifacts'
import { placeContract, placeToken, send, startTestChain, type TestChain } from './helpers'

let chain: TestChain
const usdc = tokensByChain[10]!.find((t) => t.symbol === 'USDC')!
const weth = tokensByChain[10]!.find((t) => t.symbol === 'WETH')!

beforeAll(async () => {
  chain = await startTestChain({ chainId: 10 })
  await placeToken(chain, usdc.address, usdc)
  await placeContract(chain.client, weth.address, WETH)
})

afterAll(async () => {
  await chain?.stop()
})

describe('DevnetERC20', () => {
  const token = () => ({ address: usdc.address, abi: DevnetERC20.abi }) as const

  test('initialize sets the real metadata once', async () => {
    const [minter, other] = chain.wallets
    expect(await chain.client.readContract({ ...token(), functionName: 'symbol' })).toBe('USDC')
    expect(await chain.client.readContract({ ...token(), functionName: 'name' })).toBe('USD Coin')
    expect(await chain.client.readContract({ ...token(), functionName: 'decimals' })).toBe(6)
    expect(await chain.client.readContract({ ...token(), functionName: 'minter' })).toBe(
      minter!.account.address,
    )
    await expect(
      other!.writeContract({
        ...token(),
        functionName: 'initialize',
        args: ['X', 'X', 18, other!.account.address],
      }),
    ).rejects.toThrow('AlreadyInitialized')
  })

  test('only the minter mints; transfer, approve and transferFrom move balances', async () => {
    const [minter, alice, bob] = chain.wallets
    await expect(
      alice!.writeContract({ ...token(), functionName: 'mint', args: [alice!.account.address, 1n] }),
    ).rejects.toThrow('NotMinter')
    await send(
      minter!,
      minter!.writeContract({ ...token(), functionName: 'mint', args: [alice!.account.address, 1000n] }),
    )
    expect(await chain.client.readContract({ ...token(), functionName: 'totalSupply' })).toBe(1000n)
    await send(
      alice!,
      alice!.writeContract({ ...token(), functionName: 'transfer', args: [bob!.account.address, 100n] }),
    )
    await expect(
      bob!.writeContract({
        ...token(),
        functionName: 'transferFrom',
        args: [alice!.account.address, bob!.account.address, 1n],
      }),
    ).rejects.toThrow('InsufficientAllowance')
    await send(
      alice!,
      alice!.writeContract({ ...token(), functionName: 'approve', args: [bob!.account.address, 50n] }),
    )
    await send(
      bob!,
      bob!.writeContract({
        ...token(),
        functionName: 'transferFrom',
        args: [alice!.account.address, bob!.account.address, 50n],
      }),
    )
    expect(
      await chain.client.readContract({
        ...token(),
        functionName: 'balanceOf',
        args: [bob!.account.address],
      }),
    ).toBe(150n)
    expect(
      await chain.client.readContract({
        ...token(),
        functionName: 'balanceOf',
        args: [alice!.account.address],
      }),
    ).toBe(850n)
    await expect(
      alice!.writeContract({ ...token(), functionName: 'transfer', args: [bob!.account.address, 10_000n] }),
    ).rejects.toThrow('InsufficientBalance')
  })
})

describe('WETH', () => {
  const token = () => ({ address: weth.address, abi: WETH.abi }) as const

  test('deposit, receive and withdraw wrap and unwrap ether', async () => {
    const alice = chain.wallets[3]!
    expect(await chain.client.readContract({ ...token(), functionName: 'decimals' })).toBe(18)
    expect(await chain.client.readContract({ ...token(), functionName: 'symbol' })).toBe('WETH')
    await send(alice, alice.writeContract({ ...token(), functionName: 'deposit', value: parseEther('2') }))
    await send(alice, alice.sendTransaction({ to: weth.address, value: parseEther('1') }))
    expect(
      await chain.client.readContract({
        ...token(),
        functionName: 'balanceOf',
        args: [alice.account.address],
      }),
    ).toBe(parseEther('3'))
    const before = await chain.client.getBalance({ address: alice.account.address })
    await send(alice, alice.writeContract({ ...token(), functionName: 'withdraw', args: [parseEther('1')] }))
    const after = await chain.client.getBalance({ address: alice.account.address })
    // Gained 1 ETH minus gas.
    expect(after - before > parseEther('0.99')).toBe(true)
    expect(await chain.client.readContract({ ...token(), functionName: 'totalSupply' })).toBe(parseEther('2'))
    await expect(
      alice.writeContract({ ...token(), functionName: 'withdraw', args: [parseEther('5')] }),
    ).rejects.toThrow('InsufficientBalance')
  })
})
