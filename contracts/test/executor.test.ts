import {
  type Address,
  concat,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  hashTypedData,
  http,
  keccak256,
  parseEther,
  toHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { optimism } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../../simulator/devnet/anvil'
import { SINGLE_CHAIN_OPS_TYPES } from '../../spec'
import { addresses } from '../addresses'
import { ExecutorTestAccount, ExecutorTestCounter, IntentExecutor } from '../generated/artifacts'

const owner = privateKeyToAccount(keccak256(toHex('executor.test owner')))
const stranger = privateKeyToAccount(keccak256(toHex('executor.test stranger')))
const relayer = privateKeyToAccount(keccak256(toHex('executor.test relayer')))
const eoa = privateKeyToAccount(keccak256(toHex('executor.test eoa')))
const account: Address = '0x00000000000000000000000000000000acc0ff11'
const counter: Address = '0x00000000000000000000000000000000c0ffee01'
/** The 20-byte validator prefix of an ERC-7579 signature (zero: the default validator). */
const validatorPrefix: Hex = `0x${'00'.repeat(20)}`

/** The SingleChainOps types (spec/eip712Types.ts), as the public SDK 1.x writes them. */
const singleChainOpsTypes = SINGLE_CHAIN_OPS_TYPES

type SingleChainOpsMessage = {
  account: Address
  nonce: bigint
  op: { vt: Hex; ops: readonly { to: Address; value: bigint; data: Hex }[] }
  gasRefund: { token: Address; exchangeRate: bigint; overhead: bigint }
}

function typedData(message: SingleChainOpsMessage, executor: Address = addresses.intentExecutor) {
  return {
    domain: { name: 'IntentExecutor', version: 'v0.0.1', chainId: 10, verifyingContract: executor },
    types: singleChainOpsTypes,
    primaryType: 'SingleChainOps',
    message,
  } as const
}

function bump(by: bigint, value = 0n) {
  return {
    to: counter,
    value,
    data: encodeFunctionData({ abi: ExecutorTestCounter.abi, functionName: 'bump', args: [by] }),
  }
}

const noRefund = { token: zeroAddress, exchangeRate: 0n, overhead: 0n }

let anvil: AnvilInstance
let publicClient: ReturnType<typeof createPublicClient<ReturnType<typeof http>, typeof optimism>>
let wallet: ReturnType<typeof createWalletClient<ReturnType<typeof http>, typeof optimism, typeof relayer>>

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 10 })
  const transport = http(anvil.rpcUrl)
  publicClient = createPublicClient({ chain: optimism, transport })
  wallet = createWalletClient({ chain: optimism, transport, account: relayer })
  const test = createTestClient({ chain: optimism, transport, mode: 'anvil' })
  await test.setBalance({ address: relayer.address, value: parseEther('100') })
  await test.setBalance({ address: account, value: parseEther('1') })
  for (const address of [addresses.intentExecutor, addresses.intentExecutorDev])
    await test.setCode({ address, bytecode: IntentExecutor.deployedBytecode })
  await test.setCode({ address: account, bytecode: ExecutorTestAccount.deployedBytecode })
  await test.setCode({ address: counter, bytecode: ExecutorTestCounter.deployedBytecode })
  await send(account, ExecutorTestAccount.abi, 'initialize', [owner.address, addresses.intentExecutor])
})

afterAll(async () => {
  await anvil?.stop()
})

// biome-ignore lint/suspicious/noExplicitAny: a thin helper over typed viem calls
async function send(address: Address, abi: any, functionName: string, args: unknown[], value?: bigint) {
  const hash = await wallet.writeContract({ address, abi, functionName, args, ...(value ? { value } : {}) })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

async function execute(
  message: SingleChainOpsMessage,
  signature: Hex,
  executor: Address = addresses.intentExecutor,
) {
  const { request } = await publicClient.simulateContract({
    account: relayer,
    address: executor,
    abi: IntentExecutor.abi,
    functionName: 'executeSingleChainOps',
    args: [message, signature],
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await wallet.writeContract(request) })
  expect(receipt.status).toBe('success')
  return receipt
}

async function executeError(
  message: SingleChainOpsMessage,
  signature: Hex,
  executor: Address = addresses.intentExecutor,
) {
  return publicClient
    .simulateContract({
      account: relayer,
      address: executor,
      abi: IntentExecutor.abi,
      functionName: 'executeSingleChainOps',
      args: [message, signature],
    })
    .then(
      () => 'no revert',
      // biome-ignore lint/suspicious/noExplicitAny: viem's ContractFunctionRevertedError
      (error: any) => error.walk((e: any) => e?.data?.errorName)?.data?.errorName as string | undefined,
    )
}

async function countOf(address: Address) {
  return publicClient.readContract({
    address: counter,
    abi: ExecutorTestCounter.abi,
    functionName: 'counts',
    args: [address],
  })
}

describe('IntentExecutor', () => {
  it('computes the digest viem computes for the SDK typed data, at each of its addresses', async () => {
    const message: SingleChainOpsMessage = {
      account,
      nonce: 7n,
      op: { vt: toHex(1, { size: 32 }), ops: [bump(3n)] },
      gasRefund: { token: counter, exchangeRate: 5n, overhead: 9n },
    }
    for (const executor of [addresses.intentExecutor, addresses.intentExecutorDev]) {
      const digest = await publicClient.readContract({
        address: executor,
        abi: IntentExecutor.abi,
        functionName: 'getSingleChainOpsDigest',
        args: [message],
      })
      expect(digest).toBe(hashTypedData(typedData(message, executor)))
    }
  })

  it('runs a smart account’s signed ops through executeFromExecutor (ERC-1271 signature with validator prefix)', async () => {
    const message: SingleChainOpsMessage = {
      account,
      nonce: 1n,
      op: { vt: toHex(0, { size: 32 }), ops: [bump(2n), bump(3n, 1000n)] },
      gasRefund: noRefund,
    }
    const signature = concat([validatorPrefix, await owner.signTypedData(typedData(message))])
    expect(await countOf(account)).toBe(0n)
    await execute(message, signature)
    expect(await countOf(account)).toBe(5n)
    expect(
      await publicClient.readContract({
        address: counter,
        abi: ExecutorTestCounter.abi,
        functionName: 'received',
      }),
    ).toBe(1000n)
    expect(
      await publicClient.readContract({
        address: addresses.intentExecutor,
        abi: IntentExecutor.abi,
        functionName: 'isNonceUsed',
        args: [account, 1n],
      }),
    ).toBe(true)
  })

  it('reverts a replayed nonce', async () => {
    const message: SingleChainOpsMessage = {
      account,
      nonce: 1n,
      op: { vt: toHex(0, { size: 32 }), ops: [bump(2n)] },
      gasRefund: noRefund,
    }
    const signature = concat([validatorPrefix, await owner.signTypedData(typedData(message))])
    expect(await executeError(message, signature)).toBe('NonceAlreadyUsed')
  })

  it('reverts a signature by someone else, and leaves the nonce unused', async () => {
    const message: SingleChainOpsMessage = {
      account,
      nonce: 2n,
      op: { vt: toHex(0, { size: 32 }), ops: [bump(1n)] },
      gasRefund: noRefund,
    }
    const bad = concat([validatorPrefix, await stranger.signTypedData(typedData(message))])
    expect(await executeError(message, bad)).toBe('InvalidSignature')
    // A signature over other ops (or another gas refund) does not carry over.
    const other = concat([
      validatorPrefix,
      await owner.signTypedData(typedData({ ...message, gasRefund: { ...noRefund, overhead: 1n } })),
    ])
    expect(await executeError(message, other)).toBe('InvalidSignature')
    expect(
      await publicClient.readContract({
        address: addresses.intentExecutor,
        abi: IntentExecutor.abi,
        functionName: 'isNonceUsed',
        args: [account, 2n],
      }),
    ).toBe(false)
  })

  it('binds the signature to the executor address: a canonical-domain signature fails at the dev address', async () => {
    const message: SingleChainOpsMessage = {
      account,
      nonce: 3n,
      op: { vt: toHex(0, { size: 32 }), ops: [bump(1n)] },
      gasRefund: noRefund,
    }
    const signature = concat([validatorPrefix, await owner.signTypedData(typedData(message))])
    expect(await executeError(message, signature, addresses.intentExecutorDev)).toBe('InvalidSignature')
  })

  it('reverts when an op reverts (the account bubbles it)', async () => {
    const refuse = {
      to: counter,
      value: 0n,
      data: encodeFunctionData({ abi: ExecutorTestCounter.abi, functionName: 'refuse' }),
    }
    const message: SingleChainOpsMessage = {
      account,
      nonce: 4n,
      op: { vt: toHex(0, { size: 32 }), ops: [bump(1n), refuse] },
      gasRefund: noRefund,
    }
    const signature = concat([validatorPrefix, await owner.signTypedData(typedData(message))])
    expect(await executeError(message, signature)).toBe('ExecutionFailed')
  })

  it('verifies an EOA by ECDSA; an EOA without code can only consume a nonce', async () => {
    const empty: SingleChainOpsMessage = {
      account: eoa.address,
      nonce: 1n,
      op: { vt: toHex(0, { size: 32 }), ops: [] },
      gasRefund: noRefund,
    }
    await execute(empty, await eoa.signTypedData(typedData(empty)))
    expect(
      await publicClient.readContract({
        address: addresses.intentExecutor,
        abi: IntentExecutor.abi,
        functionName: 'isNonceUsed',
        args: [eoa.address, 1n],
      }),
    ).toBe(true)
    const withOps: SingleChainOpsMessage = {
      ...empty,
      nonce: 2n,
      op: { vt: toHex(0, { size: 32 }), ops: [bump(1n)] },
    }
    expect(await executeError(withOps, await eoa.signTypedData(typedData(withOps)))).toBe('AccountHasNoCode')
    expect(await executeError(withOps, await stranger.signTypedData(typedData(withOps)))).toBe(
      'InvalidSignature',
    )
  })

  it('runs ops for an EIP-7702 delegated EOA through its delegate’s code, signed by the EOA key', async () => {
    const delegated = privateKeyToAccount(keccak256(toHex('executor.test delegated')))
    const test = createTestClient({ chain: optimism, transport: http(anvil.rpcUrl), mode: 'anvil' })
    // The delegation designator 0xef0100 ‖ delegate, as an EIP-7702 authorization leaves it.
    await test.setCode({ address: delegated.address, bytecode: concat(['0xef0100', account]) })
    await send(delegated.address, ExecutorTestAccount.abi, 'initialize', [
      delegated.address,
      addresses.intentExecutor,
    ])
    const message: SingleChainOpsMessage = {
      account: delegated.address,
      nonce: 1n,
      op: { vt: toHex(0, { size: 32 }), ops: [bump(4n)] },
      gasRefund: noRefund,
    }
    await execute(message, await delegated.signTypedData(typedData(message)))
    expect(await countOf(delegated.address)).toBe(4n)
  })

  it('answers the ERC-7579 module queries as an executor', async () => {
    const isModuleType = (id: bigint) =>
      publicClient.readContract({
        address: addresses.intentExecutor,
        abi: IntentExecutor.abi,
        functionName: 'isModuleType',
        args: [id],
      })
    const isInitialized = (who: Address) =>
      publicClient.readContract({
        address: addresses.intentExecutor,
        abi: IntentExecutor.abi,
        functionName: 'isInitialized',
        args: [who],
      })
    expect(await isModuleType(2n)).toBe(true)
    expect(await isModuleType(1n)).toBe(false)
    expect(await isInitialized(account)).toBe(true)
    expect(await isInitialized(stranger.address)).toBe(false)
  })
})
