import { RhinestoneSDK } from '@rhinestone/sdk'
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  parseUnits,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { arbitrum, base, optimism } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { addresses } from '../../contracts/addresses'
import { ExecutorTestCounter } from '../../contracts/generated/artifacts'
import {
  approvePermit2,
  balanceOf,
  compactBalanceOf,
} from '../../simulator/settlement/testing/buildSignedIntent'
import {
  ALPS,
  depositToCompactFor,
  isForwardRunToCompleted,
  minedTransactionProblem,
} from '../../simulator/settlement/testing/e2eClient'
import { COUNTER, DEST, usdc, usdcOf, useSimulatorE2e } from './simulator.e2e.fixture'

/**
 * The public SDK 1.x, unmodified, sending intents WITH destination calls to a started simulator:
 * its destinationSignature is its last origin signature, and the destination side verifies it on
 * chain over the signed Mandate before the IntentExecutor runs the calls (docs/settlement.md).
 * Balances are read on chain.
 */
const { sim, http, counts, hasCode } = useSimulatorE2e()

const who = (label: string) => privateKeyToAccount(keccak256(toHex(`sdkCalls.e2e ${label}`)))
const sdk = () =>
  new RhinestoneSDK({
    apiKey: sim.apiKey,
    endpointUrl: sim.baseUrl,
    provider: {
      type: 'custom',
      urls: Object.fromEntries(sim.devnet.chains.map((c) => [c.chainId, c.rpcUrl])),
    },
  })
const transfer = (token: Address, to: Address, amount: bigint) => ({
  to: token,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
})
const bump = (by: bigint) => ({
  to: COUNTER,
  data: encodeFunctionData({ abi: ExecutorTestCounter.abi, functionName: 'bump', args: [by] }),
})
const ethBalance = (chainId: number, address: Address) =>
  sim.devnet.chain(chainId).publicClient.getBalance({ address })
type Execution = { fill: { hash: Hex; chainId: number }; claims: { hash: Hex; chainId: number }[] }

/** waitForExecution's answer names the fill and every claim, each mined to the filler / the arbiter; the status path agrees. */
async function expectSettled(result: unknown, execution: unknown, origins: number[]) {
  const { fill, claims } = execution as Execution
  const { body, seen } = await http.follow(`/intent-operation/${(result as { id: bigint }).id}`, ALPS)
  expect(body.status, JSON.stringify(body)).toBe('COMPLETED')
  expect(isForwardRunToCompleted(seen)).toBe(true)
  expect(fill.hash).toBe(body.fillTransactionHash)
  expect(await minedTransactionProblem(sim.devnet, DEST, fill.hash, addresses.filler)).toBeUndefined()
  expect(claims.map((c) => c.chainId).sort()).toEqual([...origins].sort())
  // The SDK's waitForExecution returns at FILLED (its own rule), when a claim may not have been
  // sent yet on a busy machine: a claim it names without a hash is checked from the final status.
  const finalClaims = new Map(
    (body.claims as { chainId: number; claimTransactionHash?: Hex }[]).map((c) => [c.chainId, c]),
  )
  for (const claim of claims) {
    const hash = claim.hash ?? finalClaims.get(claim.chainId)?.claimTransactionHash
    expect(await minedTransactionProblem(sim.devnet, claim.chainId, hash, addresses.arbiter)).toBeUndefined()
  }
  return body
}

describe('the public SDK 1.x with destination calls, against startSimulator', () => {
  it('EOA funded through Permit2: several calls move the received tokens onward', async () => {
    const user = sim.devnet.keys.accounts[5]!.account
    await approvePermit2(sim.devnet, user, 10, usdcOf(10))
    const [third, fourth] = [who('permit2 third').address, who('permit2 fourth').address]
    const before = {
      dest: await balanceOf(sim.devnet, DEST, usdcOf(DEST), user.address),
      origin: await balanceOf(sim.devnet, 10, usdcOf(10), user.address),
    }
    const account = await sdk().createAccount({ account: { type: 'eoa' }, eoa: user })
    const result = await account.sendTransaction({
      sourceChains: [optimism],
      targetChain: base,
      calls: [transfer(usdcOf(DEST), third, usdc(5)), transfer(usdcOf(DEST), fourth, usdc(3))],
      tokenRequests: [{ address: usdcOf(DEST), amount: usdc(25) }],
    })
    const body = await expectSettled(result, await account.waitForExecution(result), [10])
    expect(body.userAddress).toBe(user.address)
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), third)).toBe(usdc(5))
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), fourth)).toBe(usdc(3))
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), user.address)).toBe(before.dest + usdc(17))
    // The executor made the calls with the delivered tokens and kept none.
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), addresses.intentExecutor)).toBe(0n)
    expect(await balanceOf(sim.devnet, 10, usdcOf(10), user.address)).toBeLessThan(before.origin - usdc(25))
  }, 120_000)

  it('EOA funded through Compact locks: a call sends tokens onward', async () => {
    const user = sim.devnet.keys.accounts[6]!.account
    const third = who('compact third').address
    const lockBefore = await compactBalanceOf(sim.devnet, 10, usdcOf(10), user.address)
    expect(lockBefore).toBeGreaterThan(usdc(20))
    const account = await sdk().createAccount({ account: { type: 'eoa' }, eoa: user })
    const result = await account.sendTransaction({
      sourceChains: [optimism],
      targetChain: base,
      calls: [transfer(usdcOf(DEST), third, usdc(7))],
      tokenRequests: [{ address: usdcOf(DEST), amount: usdc(20) }],
    })
    await expectSettled(result, await account.waitForExecution(result), [10])
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), third)).toBe(usdc(7))
    expect(await compactBalanceOf(sim.devnet, 10, usdcOf(10), user.address)).toBeLessThan(
      lockBefore - usdc(20),
    )
  }, 120_000)

  it('Nexus smart account deployed by the intent: calls with value and a contract call', async () => {
    const owner = who('nexus owner')
    const account = await sdk().createAccount({ owners: { type: 'ecdsa', accounts: [owner] } })
    const address = getAddress(account.getAddress())
    expect(await hasCode(DEST, address)).toBe(false)
    await depositToCompactFor(sim.devnet, sim.devnet.keys.accounts[0]!.account, 10, 'USDC', usdc(40), address)
    // Ether for the call with value: the account holds it on the destination before it exists.
    await sim.devnet.chain(DEST).testClient.setBalance({ address, value: parseUnits('1', 18) })
    const third = who('nexus third').address
    const result = await account.sendTransaction({
      sourceChains: [optimism],
      targetChain: base,
      calls: [
        bump(9n),
        transfer(usdcOf(DEST), third, usdc(4)),
        { to: third, value: parseUnits('0.25', 18), data: '0x' },
      ],
      tokenRequests: [{ address: usdcOf(DEST), amount: usdc(20) }],
    })
    await expectSettled(result, await account.waitForExecution(result), [10])
    expect(await hasCode(DEST, address)).toBe(true)
    expect(await counts(address)).toBe(9n)
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), third)).toBe(usdc(4))
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), address)).toBe(usdc(16))
    expect(await ethBalance(DEST, third)).toBe(parseUnits('0.25', 18))
  }, 120_000)

  it('EIP-7702 mode (eip7702InitSignature): the EOA is delegated to Nexus and initialised by the intent, then runs its calls', async () => {
    const eoa = who('7702 eoa')
    const account = await sdk().createAccount({ owners: { type: 'ecdsa', accounts: [eoa] }, eoa })
    expect(getAddress(account.getAddress())).toBe(eoa.address)
    await depositToCompactFor(
      sim.devnet,
      sim.devnet.keys.accounts[2]!.account,
      10,
      'USDC',
      usdc(30),
      eoa.address,
    )
    const third = who('7702 third').address
    const eip7702InitSignature = await account.signEip7702InitData()
    // An init signature that is not the EOA's: the pre-submit check runs the setup with the
    // delegation as a state override, our Nexus refuses it, nothing is sent.
    const forged =
      `${eip7702InitSignature.slice(0, 10)}${eip7702InitSignature[10] === '0' ? '1' : '0'}${eip7702InitSignature.slice(11)}` as Hex
    const refused = await account
      .sendTransaction({
        sourceChains: [optimism],
        targetChain: base,
        calls: [bump(1n)],
        tokenRequests: [{ address: usdcOf(DEST), amount: usdc(10) }],
        eip7702InitSignature: forged,
      })
      .then(
        () => undefined,
        (e: unknown) => e as Error & { statusCode?: number },
      )
    expect(refused?.statusCode).toBe(400)
    expect(refused?.message).toMatch(/originSignatures\[0\].*the account setup calls revert/)
    expect(await hasCode(DEST, eoa.address)).toBe(false)
    const result = await account.sendTransaction({
      sourceChains: [optimism],
      targetChain: base,
      calls: [bump(6n), transfer(usdcOf(DEST), third, usdc(2))],
      tokenRequests: [{ address: usdcOf(DEST), amount: usdc(10) }],
      eip7702InitSignature,
    })
    await expectSettled(result, await account.waitForExecution(result), [10])
    const designator = `0xef0100${addresses.nexusImplementation.slice(2)}`.toLowerCase()
    for (const chainId of [10, DEST])
      expect(
        (await sim.devnet.chain(chainId).publicClient.getCode({ address: eoa.address }))?.toLowerCase(),
      ).toBe(designator)
    expect(await counts(eoa.address)).toBe(6n)
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), third)).toBe(usdc(2))
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), eoa.address)).toBe(usdc(8))
  }, 120_000)

  it('two source chains fund one target with calls; waitForExecution names the fill and both claims; getIntentStatus and getPortfolio answer', async () => {
    const owner = who('two origins owner')
    const client = sdk()
    const account = await client.createAccount({ owners: { type: 'ecdsa', accounts: [owner] } })
    const address = getAddress(account.getAddress())
    const funder = sim.devnet.keys.accounts[1]!.account
    await depositToCompactFor(sim.devnet, funder, 10, 'USDC', usdc(20), address)
    await depositToCompactFor(sim.devnet, funder, 42161, 'USDC', usdc(20), address)
    const third = who('two origins third').address
    const result = await account.sendTransaction({
      sourceChains: [optimism, arbitrum],
      targetChain: base,
      calls: [transfer(usdcOf(DEST), third, usdc(10))],
      tokenRequests: [{ address: usdcOf(DEST), amount: usdc(30) }],
    })
    await expectSettled(result, await account.waitForExecution(result), [10, 42161])
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), third)).toBe(usdc(10))
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), address)).toBe(usdc(20))
    const status = await client.getIntentStatus(BigInt((result as { id: bigint }).id))
    expect(status.status).toBe('COMPLETED')
    expect((status as unknown as Execution).claims).toHaveLength(2)
  }, 120_000)

  it('getPortfolio answers: locked Compact balances and wallet balances per chain, as on chain', async () => {
    const holder = who('portfolio holder')
    const funder = sim.devnet.keys.accounts[2]!.account
    await depositToCompactFor(sim.devnet, funder, 10, 'USDC', usdc(7), holder.address)
    const dest = sim.devnet.chain(DEST)
    await dest.publicClient.waitForTransactionReceipt({
      hash: await dest.relayerClient.writeContract({
        account: funder,
        address: usdcOf(DEST),
        abi: erc20Abi,
        functionName: 'transfer',
        args: [holder.address, usdc(3)],
      }),
    })
    const account = await sdk().createAccount({ account: { type: 'eoa' }, eoa: holder })
    const portfolio = await account.getPortfolio()
    const usdcEntry = portfolio.find((token) => token.symbol === 'USDC')
    expect(usdcEntry?.balances).toEqual({ locked: usdc(7), unlocked: usdc(3) })
    expect(
      usdcEntry?.chains
        .map(({ chain, locked, unlocked }) => ({ chain, locked, unlocked }))
        .sort((a, b) => a.chain - b.chain),
    ).toEqual([
      { chain: 10, locked: usdc(7), unlocked: 0n },
      { chain: DEST, locked: 0n, unlocked: usdc(3) },
    ])
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), holder.address)).toBe(usdc(3))
    expect(await compactBalanceOf(sim.devnet, 10, usdcOf(10), holder.address)).toBe(usdc(7))
  }, 60_000)

  it('falls back on a settlementLayer it does not know (INTENT_ARBITER): it signs the funding method’s typed data; the route carries every field the spec lists', async () => {
    const user = sim.devnet.keys.accounts[7]!.account
    await approvePermit2(sim.devnet, user, 10, usdcOf(10))
    const account = await sdk().createAccount({ account: { type: 'eoa' }, eoa: user })
    const prepared = await account.prepareTransaction({
      sourceChains: [optimism],
      targetChain: base,
      calls: [transfer(usdcOf(DEST), who('fallback third').address, usdc(1))],
      tokenRequests: [{ address: usdcOf(DEST), amount: usdc(2) }],
    })
    // biome-ignore lint/suspicious/noExplicitAny: the route as served, read field by field
    const intentOp = prepared.intentRoute.intentOp as any
    const element = intentOp.elements[0]
    const context = element.mandate.qualifier.settlementContext
    expect(context).toMatchObject({
      settlementLayer: 'INTENT_ARBITER',
      fundingMethod: 'PERMIT2',
      prefundAmount: 0,
      bridgeFill: { destinationChainId: DEST, type: 'OFT' },
    })
    const { origin, destination } = account.getTransactionMessages(prepared)
    expect(origin.map((o) => o.primaryType)).toEqual(['PermitBatchWitnessTransferFrom'])
    expect(destination.primaryType).toBe('PermitBatchWitnessTransferFrom')
    expect(intentOp.signedAuthorizations).toEqual([])
    expect(intentOp.recipientSignedAuthorizations).toEqual([])
    expect(element.swapOrigins).toEqual({})
    expect(element.mandate.swapDestinations).toEqual([])
    const metadata = intentOp.signedMetadata
    expect(Object.keys(metadata.opGasParams).sort()).toEqual(['10', '8453'])
    expect(metadata.opGasParams['8453']).toMatchObject({ l1BlobBaseFee: '1', baseFeeScalar: '1368' })
    expect(metadata.executionTokensReceived).toEqual([usdcOf(DEST)])
    expect(metadata.account.requiredDelegations).toEqual({})
    expect(Object.keys(metadata.recipient).sort()).toEqual(
      expect.arrayContaining(['accountContext', 'emissaryConfig', 'requiredDelegations']),
    )
  }, 60_000)
})
