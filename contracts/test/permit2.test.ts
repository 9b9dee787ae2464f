import { type Address, encodeFunctionData, type Hex, hashStruct } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { PERMIT_BATCH_WITNESS_TYPES } from '../../spec'
import { addresses } from '../addresses'
import { DevnetERC20, Permit2, TestERC1271Wallet } from '../generated/artifacts'
import {
  anvilAccounts,
  placeContract,
  placeToken,
  send,
  startTestChain,
  type TestChain,
  type TestWallet,
} from './helpers'

let chain: TestChain
let owner: TestWallet
let spender: TestWallet
let snapshot: Hex | undefined
const permit2 = { address: addresses.permit2, abi: Permit2.abi } as const
const tokenA = '0x00000000000000000000000000000000000a0a0a' as const
const tokenB = '0x00000000000000000000000000000000000b0b0b' as const
const wallet1271 = '0x0000000000000000000000000000000000127101' as const
const receiver = anvilAccounts[5]!.address

/** A witness shaped like the SDK's: PermitBatchWitnessTransferFrom(..., Mandate mandate). */
const witnessTypes = {
  Mandate: [
    { name: 'recipient', type: 'address' },
    { name: 'fillDeadline', type: 'uint256' },
  ],
} as const
/** The service's PermitBatchWitnessTransferFrom (spec/eip712Types.ts) over the test witness. */
const batchTypes = {
  PermitBatchWitnessTransferFrom: PERMIT_BATCH_WITNESS_TYPES.PermitBatchWitnessTransferFrom,
  TokenPermissions: PERMIT_BATCH_WITNESS_TYPES.TokenPermissions,
  ...witnessTypes,
} as const
/** Permit2's witnessTypeString: the rest of the type string after `deadline,` (sorted referenced types). */
const witnessTypeString =
  'Mandate mandate)Mandate(address recipient,uint256 fillDeadline)TokenPermissions(address token,uint256 amount)'
const mandate = { recipient: receiver, fillDeadline: 1_900_000_000n }

async function balanceOf(token: Address, who: Address) {
  return chain.client.readContract({
    address: token,
    abi: DevnetERC20.abi,
    functionName: 'balanceOf',
    args: [who],
  })
}

async function sign(
  signer: { signTypedData: TestWallet['signTypedData'] } | (typeof anvilAccounts)[number],
  nonce: bigint,
  deadline: bigint,
  amounts = [100n, 200n],
) {
  const message = {
    permitted: [
      { token: tokenA, amount: amounts[0]! },
      { token: tokenB, amount: amounts[1]! },
    ],
    spender: spender.account.address,
    nonce,
    deadline,
    mandate,
  }
  const signature = await (signer as TestWallet).signTypedData({
    domain: { name: 'Permit2', chainId: chain.chain.id, verifyingContract: addresses.permit2 },
    types: batchTypes,
    primaryType: 'PermitBatchWitnessTransferFrom',
    message,
    // biome-ignore lint/suspicious/noExplicitAny: local accounts and wallets share this signature
  } as any)
  return { message, signature }
}

function transfer(
  from: Address,
  nonce: bigint,
  deadline: bigint,
  signature: Hex,
  requested = [100n, 200n],
  amounts = [100n, 200n],
) {
  return spender.writeContract({
    ...permit2,
    functionName: 'permitWitnessTransferFrom',
    args: [
      {
        permitted: [
          { token: tokenA, amount: amounts[0]! },
          { token: tokenB, amount: amounts[1]! },
        ],
        nonce,
        deadline,
      },
      [
        { to: receiver, requestedAmount: requested[0]! },
        { to: receiver, requestedAmount: requested[1]! },
      ],
      from,
      hashStruct({ types: witnessTypes, primaryType: 'Mandate', data: mandate }),
      witnessTypeString,
      signature,
    ],
  })
}

async function deadline() {
  return (await chain.client.getBlock()).timestamp + 600n
}

beforeAll(async () => {
  chain = await startTestChain({ chainId: 42161 })
  owner = chain.wallets[1]!
  spender = chain.wallets[2]!
  await placeContract(chain.client, addresses.permit2, Permit2)
  const minter = chain.wallets[0]!
  for (const token of [tokenA, tokenB]) {
    await placeToken(chain, token, { name: token, symbol: 'T', decimals: 6 }, minter)
    for (const who of [owner.account.address, wallet1271])
      await send(
        minter,
        minter.writeContract({
          address: token,
          abi: DevnetERC20.abi,
          functionName: 'mint',
          args: [who, 10_000n],
        }),
      )
    await send(
      owner,
      owner.writeContract({
        address: token,
        abi: DevnetERC20.abi,
        functionName: 'approve',
        args: [addresses.permit2, 2n ** 256n - 1n],
      }),
    )
  }
})

afterAll(async () => {
  await chain?.stop()
})

beforeEach(async () => {
  if (snapshot) await chain.client.revert({ id: snapshot })
  snapshot = await chain.client.snapshot()
})

describe('Permit2', () => {
  test('DOMAIN_SEPARATOR has no version and follows the chain and address', async () => {
    const { hashDomain } = await import('viem')
    const expected = hashDomain({
      domain: { name: 'Permit2', chainId: BigInt(chain.chain.id), verifyingContract: addresses.permit2 },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
      },
    })
    expect(await chain.client.readContract({ ...permit2, functionName: 'DOMAIN_SEPARATOR' })).toBe(expected)
  })

  test('a batch witness transfer signed with viem signTypedData moves the tokens once', async () => {
    const d = await deadline()
    const { signature } = await sign(owner, 7n, d)
    await send(spender, transfer(owner.account.address, 7n, d, signature, [100n, 150n]))
    expect(await balanceOf(tokenA, receiver)).toBe(100n)
    expect(await balanceOf(tokenB, receiver)).toBe(150n)
    expect(
      await chain.client.readContract({
        ...permit2,
        functionName: 'nonceBitmap',
        args: [owner.account.address, 0n],
      }),
    ).toBe(1n << 7n)
    await expect(transfer(owner.account.address, 7n, d, signature)).rejects.toThrow('InvalidNonce')
  })

  test('reverts on a bad signature, a wrong spender, expiry, over-request and an invalidated nonce', async () => {
    const d = await deadline()
    const { signature } = await sign(anvilAccounts[9]!, 1n, d)
    await expect(transfer(owner.account.address, 1n, d, signature)).rejects.toThrow('InvalidSigner')
    const good = (await sign(owner, 1n, d)).signature
    // Signed for `spender`; another caller is another spender in the hash.
    await expect(
      chain.wallets[3]!.writeContract({
        ...permit2,
        functionName: 'permitWitnessTransferFrom',
        args: [
          {
            permitted: [
              { token: tokenA, amount: 100n },
              { token: tokenB, amount: 200n },
            ],
            nonce: 1n,
            deadline: d,
          },
          [
            { to: receiver, requestedAmount: 1n },
            { to: receiver, requestedAmount: 1n },
          ],
          owner.account.address,
          hashStruct({ types: witnessTypes, primaryType: 'Mandate', data: mandate }),
          witnessTypeString,
          good,
        ],
      }),
    ).rejects.toThrow('InvalidSigner')
    await expect(transfer(owner.account.address, 1n, d, good, [101n, 200n])).rejects.toThrow('InvalidAmount')
    const past = d - 601n
    await expect(
      transfer(owner.account.address, 1n, past, (await sign(owner, 1n, past)).signature),
    ).rejects.toThrow('SignatureExpired')
    await send(
      owner,
      owner.writeContract({ ...permit2, functionName: 'invalidateUnorderedNonces', args: [0n, 1n << 1n] }),
    )
    await expect(transfer(owner.account.address, 1n, d, good)).rejects.toThrow('InvalidNonce')
  })

  test('an ERC-1271 owner is verified through isValidSignature', async () => {
    const walletOwner = anvilAccounts[6]!
    await placeContract(chain.client, wallet1271, TestERC1271Wallet)
    const w = { address: wallet1271, abi: TestERC1271Wallet.abi } as const
    await send(
      spender,
      spender.writeContract({ ...w, functionName: 'initialize', args: [walletOwner.address] }),
    )
    const ownerWallet = chain.wallets[6]!
    for (const token of [tokenA, tokenB]) {
      const approve = encodeFunctionData({
        abi: DevnetERC20.abi,
        functionName: 'approve',
        args: [addresses.permit2, 10_000n],
      })
      await send(
        ownerWallet,
        ownerWallet.writeContract({ ...w, functionName: 'execute', args: [token, 0n, approve] }),
      )
    }
    const d = await deadline()
    await expect(
      transfer(wallet1271, 3n, d, (await sign(anvilAccounts[7]!, 3n, d)).signature),
    ).rejects.toThrow('InvalidSigner')
    await send(spender, transfer(wallet1271, 3n, d, (await sign(walletOwner, 3n, d)).signature))
    expect(await balanceOf(tokenA, receiver)).toBe(100n)
  })

  test('the single permitWitnessTransferFrom form', async () => {
    const d = await deadline()
    const types = {
      PermitWitnessTransferFrom: [
        { name: 'permitted', type: 'TokenPermissions' },
        { name: 'spender', type: 'address' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
        { name: 'mandate', type: 'Mandate' },
      ],
      TokenPermissions: batchTypes.TokenPermissions,
      ...witnessTypes,
    } as const
    const signature = await owner.signTypedData({
      domain: { name: 'Permit2', chainId: chain.chain.id, verifyingContract: addresses.permit2 },
      types,
      primaryType: 'PermitWitnessTransferFrom',
      message: {
        permitted: { token: tokenA, amount: 40n },
        spender: spender.account.address,
        nonce: 300n,
        deadline: d,
        mandate,
      },
    })
    await send(
      spender,
      spender.writeContract({
        ...permit2,
        functionName: 'permitWitnessTransferFrom',
        args: [
          { permitted: { token: tokenA, amount: 40n }, nonce: 300n, deadline: d },
          { to: receiver, requestedAmount: 40n },
          owner.account.address,
          hashStruct({ types: witnessTypes, primaryType: 'Mandate', data: mandate }),
          witnessTypeString,
          signature,
        ],
      }),
    )
    expect(await balanceOf(tokenA, receiver)).toBe(40n)
    expect(
      await chain.client.readContract({
        ...permit2,
        functionName: 'nonceBitmap',
        args: [owner.account.address, 1n],
      }),
    ).toBe(1n << 44n)
  })
})
