import { type Address, encodeFunctionData, erc20Abi, getAddress, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { addresses } from '../../contracts/addresses'
import type { TypedDataJson } from '../../simulator/eip712/typedData'
import {
  compactTypedData,
  permit2TypedData,
  singleChainOpsTypedData,
  toOpJson,
} from '../../simulator/eip712/typedData'
import {
  approvePermit2,
  balanceOf,
  compactBalanceOf,
  type IntentSigner,
  signAs,
  tokenAddress,
} from '../../simulator/settlement/testing/buildSignedIntent'
import {
  ALPS,
  BLANC,
  depositToCompactFor,
  isForwardRunToCompleted,
  minedTransactionProblem,
} from '../../simulator/settlement/testing/e2eClient'
import { nexusAccountFor } from '../../simulator/settlement/testing/nexusAccount'
import { DEST, usdc, useSimulatorE2e } from './simulator.e2e.fixture'

/**
 * End to end against the composed simulator (startSimulator: devnet + quoting + settlement +
 * withdrawals + deposits + HTTP), exactly as an integrator runs it: our own HTTP clients of both
 * versions (the public SDK 1.x: simulator.e2e.test.ts).
 */
const { sim, http, owner, funder, counts, hasCode, bump, expectAlpsHashes } = useSimulatorE2e()
const erc20Call = (token: Address, functionName: 'transfer' | 'approve', to: Address, amount: bigint) => ({
  to: token,
  value: '0',
  data: encodeFunctionData({ abi: erc20Abi, functionName, args: [to, amount] }),
})

/** Same for a blanc status body: FILL items → filler, CLAIM items → arbiter, on the operation's chain. */
async function expectBlancHashes(status: {
  operations: { chain: number; items: { type: string; status: string; txHash: Hex }[] }[]
}) {
  const items = status.operations.flatMap((o) => o.items.map((item) => ({ ...item, chain: o.chain })))
  expect(items.filter((i) => i.type === 'FILL')).toHaveLength(1)
  for (const item of items) {
    expect(item.status).toBe('COMPLETED')
    const to = item.type === 'FILL' ? addresses.filler : addresses.arbiter
    expect(await minedTransactionProblem(sim.devnet, item.chain, item.txHash, to)).toBeUndefined()
  }
  return items
}

/** alps: quote, sign every origin (and the destination ops, when any) as `signer`, submit, follow. */
async function alpsRoundTrip(parameters: { signer: IntentSigner; request: Record<string, unknown> }) {
  const route = await http.call('POST', '/intents/route', parameters.request, ALPS)
  expect(route.status, JSON.stringify(route.body)).toBe(200)
  expect(route.body.intentCost.hasFulfilledAll).toBe(true)
  const intentOp = route.body.intentOp
  const origin: TypedDataJson[] = intentOp.elements.map((element: Parameters<typeof permit2TypedData>[0]) =>
    element.mandate.qualifier.settlementContext.fundingMethod === 'COMPACT'
      ? compactTypedData(intentOp)
      : permit2TypedData(element, intentOp.nonce, intentOp.expires),
  )
  const originSignatures = await Promise.all(origin.map((td) => signAs(parameters.signer, td)))
  const mandate = intentOp.elements[0].mandate
  const destinationSignature = mandate.destinationOps.ops.length
    ? await signAs(
        parameters.signer,
        singleChainOpsTypedData({
          account: intentOp.sponsor,
          nonce: intentOp.nonce,
          destinationChainId: Number(mandate.destinationChainId),
          op: toOpJson(mandate.destinationOps),
        }),
      )
    : originSignatures.at(-1)
  const submitted = await http.call('POST', '/intent-operations', {
    signedIntentOp: { ...intentOp, originSignatures, destinationSignature },
  })
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201)
  expect(submitted.body.result.status).toBe('PENDING')
  const { body, seen } = await http.follow(`/intent-operation/${submitted.body.result.id}`, ALPS)
  expect(body.status, JSON.stringify(body)).toBe('COMPLETED')
  expect(seen[0]).toBe('PENDING')
  expect(isForwardRunToCompleted(seen), seen.join(' → ')).toBe(true)
  await expectAlpsHashes(body)
  return { intentOp, status: body, seen }
}

/** blanc: quote, pick a route, sign its signData as given (origin[] and destination), submit, follow. */
async function blancRoundTrip(parameters: {
  signer: IntentSigner
  request: Record<string, unknown>
  pick?: (route: { fundingMethod: string; cost: { input: { chainId: number }[] } }) => boolean
  /** The public paths (POST /quotes, POST /intents) instead of the spec's. */
  publicPaths?: boolean
}) {
  const quote = await http.call(
    'POST',
    parameters.publicPaths ? '/quotes' : '/intents/route',
    parameters.request,
    BLANC,
  )
  expect(quote.status, JSON.stringify(quote.body)).toBe(200)
  const route = parameters.pick ? quote.body.routes.find(parameters.pick) : quote.body.routes[0]
  expect(
    route,
    JSON.stringify(quote.body.routes.map((r: { fundingMethod: string }) => r.fundingMethod)),
  ).toBeDefined()
  const origin = await Promise.all(
    route.signData.origin.map((td: TypedDataJson) => signAs(parameters.signer, td)),
  )
  const destination = await signAs(parameters.signer, route.signData.destination)
  const submitted = parameters.publicPaths
    ? await http.call(
        'POST',
        '/intents',
        { intentId: route.intentId, signatures: { origin, destination } },
        BLANC,
      )
    : await http.call(
        'POST',
        `/intents/${route.intentId}/submit`,
        { signatures: { origin, destination } },
        BLANC,
      )
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201)
  expect(submitted.body.intentId).toBe(route.intentId)
  if (!parameters.publicPaths) expect(submitted.body.status).toBe('PENDING')
  const { body, seen } = await http.follow(`/intents/${route.intentId}`, BLANC)
  expect(body.status, JSON.stringify(body)).toBe('COMPLETED')
  expect(seen[0]).toBe('PENDING')
  expect(isForwardRunToCompleted(seen), seen.join(' → ')).toBe(true)
  const items = await expectBlancHashes(body)
  return { route, status: body, seen, items }
}

const usdcOf = (chainId: number) => tokenAddress(chainId, 'USDC')
const stranger = (label: string) => owner(`stranger ${label}`).address

describe('alps over HTTP (our own client) against startSimulator', () => {
  it('EOA, Compact, two origin chains → a recipient other than the account', async () => {
    const user = sim.devnet.keys.accounts[1]!.account
    const recipient = stranger('alps two origins')
    const before = {
      lock10: await compactBalanceOf(sim.devnet, 10, usdcOf(10), user.address),
      lock42161: await compactBalanceOf(sim.devnet, 42161, usdcOf(42161), user.address),
      userDest: await balanceOf(sim.devnet, DEST, usdcOf(DEST), user.address),
    }
    // More than either origin's lock (10,000 USDC each): the quote splits across both.
    const { intentOp, status } = await alpsRoundTrip({
      signer: { kind: 'EOA', account: user },
      request: {
        destinationChainId: DEST,
        tokenRequests: [{ tokenAddress: usdcOf(DEST), amount: usdc(15_000).toString() }],
        account: { address: user.address, accountType: 'EOA' },
        recipient: { address: recipient, accountType: 'EOA' },
        accountAccessList: { chainIds: [10, 42161] },
      },
    })
    expect(intentOp.elements.map((e: { chainId: string }) => Number(e.chainId)).sort()).toEqual([10, 42161])
    expect(intentOp.elements[0].mandate.qualifier.settlementContext.fundingMethod).toBe('COMPACT')
    expect(status.claims.map((c: { chainId: number }) => c.chainId).sort()).toEqual([10, 42161])
    // The hash check can fail: the fill is not a transaction to the arbiter, nor on an origin chain.
    expect(
      await minedTransactionProblem(sim.devnet, DEST, status.fillTransactionHash, addresses.arbiter),
    ).toMatch(/went to/)
    expect(
      await minedTransactionProblem(sim.devnet, 10, status.fillTransactionHash, addresses.filler),
    ).toMatch(/is not a transaction on chain 10/)
    expect(getAddress(status.recipient)).toBe(recipient)
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), recipient)).toBe(usdc(15_000))
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), user.address)).toBe(before.userDest)
    const spent10 = before.lock10 - (await compactBalanceOf(sim.devnet, 10, usdcOf(10), user.address))
    const spent42161 =
      before.lock42161 - (await compactBalanceOf(sim.devnet, 42161, usdcOf(42161), user.address))
    expect(spent10).toBeGreaterThan(0n)
    expect(spent42161).toBeGreaterThan(0n)
    expect(spent10 + spent42161).toBeGreaterThan(usdc(15_000))
    // Each lock paid exactly what its element signed.
    const signedAmount = (chainId: number) =>
      BigInt(
        intentOp.elements.find((e: { chainId: string }) => Number(e.chainId) === chainId).idsAndAmounts[0][1],
      )
    expect(spent10).toBe(signedAmount(10))
    expect(spent42161).toBe(signedAmount(42161))
  }, 60_000)

  it('Compact-funded Nexus smart account (our own Nexus signing): destination executions change state on the destination', async () => {
    const account = await nexusAccountFor(sim.devnet.chain(10).publicClient, owner('alps smart account'))
    const third = stranger('alps transfer')
    const spender = stranger('alps spender')
    await depositToCompactFor(sim.devnet, funder(2), 10, 'USDC', usdc(60), account.address)
    const { status } = await alpsRoundTrip({
      signer: account.signer,
      request: {
        destinationChainId: DEST,
        tokenRequests: [{ tokenAddress: usdcOf(DEST), amount: usdc(30).toString() }],
        account: { address: account.address, accountType: 'ERC7579', setupOps: account.setupOps },
        accountAccessList: { chainIds: [10] },
        destinationExecutions: [
          bump(7n),
          erc20Call(usdcOf(DEST), 'transfer', third, usdc(5)),
          erc20Call(usdcOf(DEST), 'approve', spender, usdc(11)),
        ],
      },
    })
    expect(getAddress(status.userAddress)).toBe(account.address)
    // The account received 30, then its executions ran: 5 sent on, an approval, the counter.
    expect(await counts(account.address)).toBe(7n)
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), third)).toBe(usdc(5))
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), account.address)).toBe(usdc(25))
    expect(
      await sim.devnet.chain(DEST).publicClient.readContract({
        address: usdcOf(DEST),
        abi: erc20Abi,
        functionName: 'allowance',
        args: [account.address, spender],
      }),
    ).toBe(usdc(11))
    expect(await hasCode(DEST, account.address)).toBe(true)
    expect(await hasCode(10, account.address)).toBe(true)
    expect(await compactBalanceOf(sim.devnet, 10, usdcOf(10), account.address)).toBeLessThan(usdc(30))
  }, 60_000)
})

describe('blanc over HTTP (our own client) against startSimulator', () => {
  it('Compact-funded Nexus smart account, two origin chains, destination executions signed through signData.destination', async () => {
    const account = await nexusAccountFor(sim.devnet.chain(10).publicClient, owner('blanc smart account'))
    const third = stranger('blanc transfer')
    await depositToCompactFor(sim.devnet, funder(3), 10, 'USDC', usdc(20), account.address)
    await depositToCompactFor(sim.devnet, funder(3), 42161, 'USDC', usdc(20), account.address)
    const { route, items } = await blancRoundTrip({
      signer: account.signer,
      request: {
        destinationChainId: DEST,
        tokenRequests: [{ tokenAddress: usdcOf(DEST), amount: usdc(30).toString() }],
        account: { address: account.address, accountType: 'ERC7579', setupOps: account.setupOps },
        accountAccessList: { chainIds: [10, 42161] },
        destinationExecutions: [bump(4n), erc20Call(usdcOf(DEST), 'transfer', third, usdc(10))],
      },
    })
    expect(route.fundingMethod).toBe('COMPACT')
    expect(route.signData.origin).toHaveLength(2)
    expect(route.signData.destination.primaryType).toBe('SingleChainOps')
    expect(
      items
        .filter((i) => i.type === 'CLAIM')
        .map((i) => i.chain)
        .sort(),
    ).toEqual([10, 42161])
    expect(await counts(account.address)).toBe(4n)
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), third)).toBe(usdc(10))
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), account.address)).toBe(usdc(20))
    const left = (chainId: number) => compactBalanceOf(sim.devnet, chainId, usdcOf(chainId), account.address)
    expect((await left(10)) + (await left(42161))).toBeLessThan(usdc(10))
  }, 60_000)

  it('EOA, one origin through Permit2, public paths (POST /quotes, POST /intents) → a recipient other than the account', async () => {
    const user = sim.devnet.keys.accounts[4]!.account
    const recipient = stranger('blanc permit2')
    await approvePermit2(sim.devnet, user, 10, usdcOf(10))
    const relayer = sim.devnet.keys.relayer.address
    const before = {
      wallet10: await balanceOf(sim.devnet, 10, usdcOf(10), user.address),
      relayer10: await balanceOf(sim.devnet, 10, usdcOf(10), relayer),
    }
    const { route, items } = await blancRoundTrip({
      signer: { kind: 'EOA', account: user },
      publicPaths: true,
      request: {
        destinationChainId: DEST,
        tokenRequests: [{ tokenAddress: usdcOf(DEST), amount: usdc(12).toString() }],
        account: { address: user.address, accountType: 'EOA' },
        recipient: { address: recipient, accountType: 'EOA' },
        accountAccessList: { chainIds: [10] },
      },
      pick: (r) => r.fundingMethod === 'PERMIT2',
    })
    expect(items.filter((i) => i.type === 'CLAIM').map((i) => i.chain)).toEqual([10])
    expect(await balanceOf(sim.devnet, DEST, usdcOf(DEST), recipient)).toBe(usdc(12))
    const paid = BigInt(route.cost.input[0].amount)
    expect(paid).toBeGreaterThan(usdc(12))
    expect(before.wallet10 - (await balanceOf(sim.devnet, 10, usdcOf(10), user.address))).toBe(paid)
    expect((await balanceOf(sim.devnet, 10, usdcOf(10), relayer)) - before.relayer10).toBe(paid)
  }, 60_000)
})
