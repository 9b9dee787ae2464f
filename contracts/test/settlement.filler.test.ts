import {
  type Address,
  concat,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  decodeEventLog,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  hashStruct,
  http,
  keccak256,
  parseEther,
  toHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../../simulator/devnet/anvil'
import { MANDATE_TYPES, SINGLE_CHAIN_OPS_TYPES } from '../../spec'
import { addresses } from '../addresses'
import {
  DevnetERC20,
  ExecutorTestAccount,
  ExecutorTestCounter,
  IntentExecutor,
  IntentFiller,
} from '../generated/artifacts'

const relayer = privateKeyToAccount(keccak256(toHex('filler.test relayer')))
const owner = privateKeyToAccount(keccak256(toHex('filler.test owner')))
const sponsor = privateKeyToAccount(keccak256(toHex('filler.test sponsor'))).address
const usdc: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const account: Address = '0x00000000000000000000000000000000acc0ff22'
const counter: Address = '0x00000000000000000000000000000000c0ffee02'
const recipient: Address = '0x000000000000000000000000000000000000bEEF'
const zeroVt = toHex(0, { size: 32 })

/** Target and Token as the public SDK 1.x types them inside the Mandate. */
const targetTypes = { Target: MANDATE_TYPES.Target, Token: MANDATE_TYPES.Token } as const

const singleChainOpsTypes = SINGLE_CHAIN_OPS_TYPES

type Target = {
  recipient: Address
  tokenOut: { token: Address; amount: bigint }[]
  targetChain: bigint
  fillExpiry: bigint
}
type Ops = { to: Address; value: bigint; data: Hex }
type Destination = {
  executor: Address
  ops: {
    account: Address
    nonce: bigint
    op: { vt: Hex; ops: Ops[] }
    gasRefund: { token: Address; exchangeRate: bigint; overhead: bigint }
  }
  signature: Hex
}

const noRefund = { token: zeroAddress, exchangeRate: 0n, overhead: 0n }
const noDestination: Destination = {
  executor: zeroAddress,
  ops: { account: zeroAddress, nonce: 0n, op: { vt: zeroVt, ops: [] }, gasRefund: noRefund },
  signature: '0x',
}

let anvil: AnvilInstance
let publicClient: ReturnType<typeof createPublicClient<ReturnType<typeof http>, typeof base>>
let wallet: ReturnType<typeof createWalletClient<ReturnType<typeof http>, typeof base, typeof relayer>>
let test: ReturnType<typeof createTestClient<'anvil', ReturnType<typeof http>, typeof base>>
let nonce = 0n

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 8453 })
  const transport = http(anvil.rpcUrl)
  publicClient = createPublicClient({ chain: base, transport })
  wallet = createWalletClient({ chain: base, transport, account: relayer })
  test = createTestClient({ chain: base, transport, mode: 'anvil' })
  await test.setBalance({ address: relayer.address, value: parseEther('100') })
  await test.setCode({ address: addresses.filler, bytecode: IntentFiller.deployedBytecode })
  await test.setCode({ address: addresses.intentExecutor, bytecode: IntentExecutor.deployedBytecode })
  await test.setCode({ address: usdc, bytecode: DevnetERC20.deployedBytecode })
  await test.setCode({ address: account, bytecode: ExecutorTestAccount.deployedBytecode })
  await test.setCode({ address: counter, bytecode: ExecutorTestCounter.deployedBytecode })
  await write(usdc, DevnetERC20.abi, 'initialize', ['USD Coin', 'USDC', 6, relayer.address])
  await write(usdc, DevnetERC20.abi, 'mint', [relayer.address, 1_000_000_000n])
  await write(usdc, DevnetERC20.abi, 'approve', [addresses.filler, 2n ** 256n - 1n])
  await write(account, ExecutorTestAccount.abi, 'initialize', [owner.address, addresses.intentExecutor])
})

afterAll(async () => {
  await anvil?.stop()
})

// biome-ignore lint/suspicious/noExplicitAny: a thin helper over typed viem calls
async function write(address: Address, abi: any, functionName: string, args: unknown[]) {
  const hash = await wallet.writeContract({ address, abi, functionName, args })
  expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
}

async function now() {
  return (await publicClient.getBlock()).timestamp
}

async function target(overrides: Partial<Target> = {}): Promise<Target> {
  return {
    recipient,
    tokenOut: [{ token: usdc, amount: 25_000_000n }],
    targetChain: 8453n,
    fillExpiry: (await now()) + 600n,
    ...overrides,
  }
}

function fillArgs(t: Target, destination: Destination = noDestination, minGas = 0n, intentNonce = ++nonce) {
  return [sponsor, intentNonce, t, minGas, destination] as const
}

async function fill(args: ReturnType<typeof fillArgs>, value = 0n) {
  const { request } = await publicClient.simulateContract({
    account: relayer,
    address: addresses.filler,
    abi: IntentFiller.abi,
    functionName: 'fill',
    args,
    value,
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await wallet.writeContract(request) })
  expect(receipt.status).toBe('success')
  return receipt
}

async function fillError(args: ReturnType<typeof fillArgs>, value = 0n) {
  return publicClient
    .simulateContract({
      account: relayer,
      address: addresses.filler,
      abi: IntentFiller.abi,
      functionName: 'fill',
      args,
      value,
    })
    .then(
      () => 'no revert',
      // biome-ignore lint/suspicious/noExplicitAny: viem's ContractFunctionRevertedError
      (error: any) => error.walk((e: any) => e?.data?.errorName)?.data?.errorName as string | undefined,
    )
}

/** The IntentExecutor error inside the filler's DestinationOpsFailed(reason). */
async function innerExecutorError(args: ReturnType<typeof fillArgs>) {
  try {
    await publicClient.simulateContract({
      account: relayer,
      address: addresses.filler,
      abi: IntentFiller.abi,
      functionName: 'fill',
      args,
    })
  } catch (error) {
    // biome-ignore lint/suspicious/noExplicitAny: viem's ContractFunctionRevertedError
    const reverted = (error as any).walk((e: any) => e?.data?.errorName === 'DestinationOpsFailed')
    return decodeErrorResult({ abi: IntentExecutor.abi, data: reverted.data.args[0] }).errorName
  }
  return 'no revert'
}

function usdcBalance(address: Address) {
  return publicClient.readContract({
    address: usdc,
    abi: DevnetERC20.abi,
    functionName: 'balanceOf',
    args: [address],
  })
}

function expectedFillId(intentNonce: bigint, t: Target): Hex {
  const targetHash = hashStruct({ types: targetTypes, primaryType: 'Target', data: t })
  return keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'uint256' }, { type: 'bytes32' }],
      [sponsor, intentNonce, targetHash],
    ),
  )
}

async function signedDestination(ops: Ops[], executorNonce: bigint): Promise<Destination> {
  const message = { account, nonce: executorNonce, op: { vt: zeroVt, ops }, gasRefund: noRefund }
  const signature = await owner.signTypedData({
    domain: {
      name: 'IntentExecutor',
      version: 'v0.0.1',
      chainId: 8453,
      verifyingContract: addresses.intentExecutor,
    },
    types: singleChainOpsTypes,
    primaryType: 'SingleChainOps',
    message,
  })
  return {
    executor: addresses.intentExecutor,
    ops: message,
    signature: concat([`0x${'00'.repeat(20)}`, signature]),
  }
}

describe('IntentFiller', () => {
  it('delivers tokenOut from the relayer to the recipient, records the fill once and emits Filled', async () => {
    const t = await target()
    const args = fillArgs(t)
    const before = await usdcBalance(recipient)
    const receipt = await fill(args)
    expect((await usdcBalance(recipient)) - before).toBe(25_000_000n)

    const fillId = expectedFillId(args[1], t)
    expect(
      await publicClient.readContract({
        address: addresses.filler,
        abi: IntentFiller.abi,
        functionName: 'getFillId',
        args: [sponsor, args[1], t],
      }),
    ).toBe(fillId)
    expect(
      await publicClient.readContract({
        address: addresses.filler,
        abi: IntentFiller.abi,
        functionName: 'isFilled',
        args: [fillId],
      }),
    ).toBe(true)
    const [filledBy, timestamp] = await publicClient.readContract({
      address: addresses.filler,
      abi: IntentFiller.abi,
      functionName: 'getFill',
      args: [fillId],
    })
    expect(filledBy).toBe(relayer.address)
    expect(timestamp).toBeGreaterThan(0n)

    const log = receipt.logs.find((l) => l.address.toLowerCase() === addresses.filler.toLowerCase())
    if (!log) throw new Error('no Filled event')
    const event = decodeEventLog({ abi: IntentFiller.abi, ...log })
    expect(event.eventName).toBe('Filled')
    expect(event.args).toMatchObject({
      fillId,
      sponsor,
      nonce: args[1],
      relayer: relayer.address,
      recipient,
      fillExpiry: t.fillExpiry,
    })

    // The same intent again: rejected, nothing moves.
    expect(await fillError(args)).toBe('AlreadyFilled')
  })

  it('delivers native value (token = zero address) and requires msg.value to match', async () => {
    const t = await target({
      tokenOut: [
        { token: zeroAddress, amount: 12345n },
        { token: usdc, amount: 1n },
      ],
    })
    const args = fillArgs(t)
    expect(await fillError(args, 12344n)).toBe('NativeValueMismatch')
    const before = await publicClient.getBalance({ address: recipient })
    await fill(args, 12345n)
    expect((await publicClient.getBalance({ address: recipient })) - before).toBe(12345n)
  })

  it('rejects a fill for another chain', async () => {
    expect(await fillError(fillArgs(await target({ targetChain: 10n })))).toBe('WrongTargetChain')
  })

  it('runs the destination ops through the IntentExecutor after delivery', async () => {
    const bump = {
      to: counter,
      value: 0n,
      data: encodeFunctionData({ abi: ExecutorTestCounter.abi, functionName: 'bump', args: [7n] }),
    }
    const t = await target({ recipient: account })
    await fill(fillArgs(t, await signedDestination([bump], 1n), 100_000n))
    expect(await usdcBalance(account)).toBe(25_000_000n)
    expect(
      await publicClient.readContract({
        address: counter,
        abi: ExecutorTestCounter.abi,
        functionName: 'counts',
        args: [account],
      }),
    ).toBe(7n)
  })

  it('reverts the whole fill when a destination op reverts, and records nothing', async () => {
    const refuse = {
      to: counter,
      value: 0n,
      data: encodeFunctionData({ abi: ExecutorTestCounter.abi, functionName: 'refuse' }),
    }
    const t = await target({ recipient: account })
    const args = fillArgs(t, await signedDestination([refuse], 2n))
    expect(await fillError(args)).toBe('DestinationOpsFailed')
    expect(await innerExecutorError(args)).toBe('ExecutionFailed')
    // A signature by someone else fails the same way, with the executor's reason inside.
    const forged = {
      ...args[4],
      signature: concat([`0x${'00'.repeat(20)}`, await relayer.signMessage({ message: 'x' })]),
    }
    expect(await innerExecutorError([args[0], args[1], args[2], args[3], forged])).toBe('InvalidSignature')
    expect(
      await publicClient.readContract({
        address: addresses.filler,
        abi: IntentFiller.abi,
        functionName: 'isFilled',
        args: [expectedFillId(args[1], t)],
      }),
    ).toBe(false)
  })

  it('refuses destination ops through an executor that is not one of the IntentExecutor addresses', async () => {
    const destination = { ...(await signedDestination([], 3n)), executor: counter }
    expect(await fillError(fillArgs(await target(), destination))).toBe('UnknownExecutor')
  })

  it('rejects a fill after the fill deadline', async () => {
    const t = await target()
    await test.increaseTime({ seconds: 601 })
    await test.mine({ blocks: 1 })
    expect(await fillError(fillArgs(t))).toBe('FillExpired')
  })
})
