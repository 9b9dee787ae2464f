// Own devnet, not the shared one: its in-process relayer (createServices) would share the relayer key with the shared service (two nonce queues on one key).
import {
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  keccak256,
  pad,
  parseUnits,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { addresses } from '../../contracts/addresses'
import { ExecutorTestAccount } from '../../contracts/generated/artifacts'
import { type Devnet, startDevnet } from '../devnet/startDevnet'
import { createFaults } from '../faults/faults'
import { createServices } from '../startSimulator'
import { balanceOf, buildSignedIntent, tokenAddress } from './testing/buildSignedIntent'

const usdc = (n: number) => parseUnits(String(n), 6)
let devnet: Devnet
let stack: Awaited<ReturnType<typeof createServices>>

beforeAll(async () => {
  devnet = await startDevnet({ chainIds: [10, 8453], accountCount: 4 })
  stack = await createServices({ devnet, faults: createFaults() })
}, 120_000)

afterAll(async () => {
  await stack?.stop()
  await devnet?.stop()
})

it('applies the intent’s EIP-7702 authorization on the destination and runs its destination ops through the delegate', async () => {
  const user = devnet.keys.accounts[3]!.account
  const friend = privateKeyToAccount(keccak256(toHex('eip7702.test friend'))).address
  const base = devnet.chain(8453)
  const usdc8453 = tokenAddress(8453, 'USDC')

  // The delegate: a small ERC-7579-style account; the user's storage on Base already trusts the
  // canonical IntentExecutor (slot of isExecutor[executor], mapping at slot 1), as an account
  // set up earlier would.
  const delegate = privateKeyToAccount(keccak256(toHex('eip7702.test delegate'))).address
  await base.testClient.setCode({ address: delegate, bytecode: ExecutorTestAccount.deployedBytecode })
  const slot = keccak256(
    encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [addresses.intentExecutor, 1n]),
  )
  await base.testClient.setStorageAt({ address: user.address, index: slot, value: pad('0x01') })
  expect(await base.publicClient.getCode({ address: user.address })).toBeUndefined()

  const authorization = await user.signAuthorization({
    chainId: 8453,
    address: delegate,
    nonce: await base.publicClient.getTransactionCount({ address: user.address }),
  })
  const { signedIntentOp } = await buildSignedIntent({
    signer: { kind: 'EOA', account: user },
    server: devnet.keys.server.account,
    fundingMethod: 'COMPACT',
    origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(21) }],
    destination: { chainId: 8453, symbol: 'USDC', amount: usdc(20) },
    destinationOps: [
      {
        to: usdc8453,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [friend, usdc(7)] }),
      },
    ],
    now: devnet.now(),
  })
  const withAuthorization = {
    ...signedIntentOp,
    signedAuthorizations: [
      {
        chainId: authorization.chainId,
        address: authorization.address,
        nonce: String(authorization.nonce),
        yParity: authorization.yParity!,
        r: authorization.r,
        s: authorization.s,
      },
    ],
  }
  const before = await balanceOf(devnet, 8453, usdc8453, user.address)
  const result = await stack.services.intents.submitOperation(withAuthorization)
  const deadline = Date.now() + 30_000
  let status = await stack.services.intents.getIntent(result.id)
  while (status && !['COMPLETED', 'FAILED'].includes(status.status) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50))
    status = await stack.services.intents.getIntent(result.id)
  }
  expect(status).toMatchObject({ status: 'COMPLETED' })

  // The fill transaction carried the authorization: the user is now delegated on Base only.
  expect(await base.publicClient.getCode({ address: user.address })).toBe(
    concat(['0xef0100', delegate]).toLowerCase(),
  )
  expect(await devnet.chain(10).publicClient.getCode({ address: user.address })).toBeUndefined()
  const fill = await base.publicClient.getTransaction({ hash: status!.fill.txHash as `0x${string}` })
  expect(fill.type).toBe('eip7702')
  // The destination op ran through the delegate: 20 arrived, 7 went on to the friend.
  expect(await balanceOf(devnet, 8453, usdc8453, friend)).toBe(usdc(7))
  expect(await balanceOf(devnet, 8453, usdc8453, user.address)).toBe(before + usdc(13))
})
