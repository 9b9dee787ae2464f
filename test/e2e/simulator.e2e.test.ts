import { RhinestoneSDK } from '@rhinestone/sdk'
import { erc20Abi, getAddress, type Hex } from 'viem'
import { base, optimism } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { addresses } from '../../contracts/addresses'
import { compactTypedData } from '../../simulator/eip712/typedData'
import {
  approvePermit2,
  balanceOf,
  compactBalanceOf,
  signAs,
  tokenAddress,
} from '../../simulator/settlement/testing/buildSignedIntent'
import {
  ALPS,
  depositToCompactFor,
  isForwardRunToCompleted,
  minedTransactionProblem,
} from '../../simulator/settlement/testing/e2eClient'
import { nexusAccountFor } from '../../simulator/settlement/testing/nexusAccount'
import {
  bump,
  DEST,
  erc20Call,
  owner,
  stranger,
  usdc,
  usdcOf,
  useSimulatorE2e,
} from './simulator.e2e.fixture'

/**
 * End to end against the composed simulator (startSimulator: devnet + quoting + settlement +
 * withdrawals + deposits + HTTP), exactly as an integrator runs it: the public SDK 1.x for a
 * smart account, and our own HTTP clients of both versions.
 */
const { sim, http, funder, counts, hasCode, expectAlpsHashes, alpsRoundTrip, blancRoundTrip } =
  useSimulatorE2e()
const rpcUrls = () => Object.fromEntries(sim.devnet.chains.map((c) => [c.chainId, c.rpcUrl]))

describe('the public SDK 1.x, unmodified, against startSimulator', () => {
  it('completes a cross-chain transfer for a Nexus smart account funded through the Compact (deployed by the relayer)', async () => {
    const sdk = new RhinestoneSDK({
      apiKey: sim.apiKey,
      endpointUrl: sim.baseUrl,
      provider: { type: 'custom', urls: rpcUrls() },
    })
    const account = await sdk.createAccount({
      owners: { type: 'ecdsa', accounts: [owner('sdk smart account')] },
    })
    const address = getAddress(account.getAddress())
    // The SDK's predicted address is where our factory deploys the account it describes.
    const ours = await nexusAccountFor(sim.devnet.chain(10).publicClient, owner('sdk smart account'))
    expect(ours.address).toBe(address)
    expect(await hasCode(10, address)).toBe(false)
    expect(await hasCode(DEST, address)).toBe(false)
    // Anyone can lock tokens for the account; it holds nothing in its wallet.
    await depositToCompactFor(sim.devnet, funder(0), 10, 'USDC', usdc(40), address)
    const usdc10 = tokenAddress(10, 'USDC')
    const usdcDest = tokenAddress(DEST, 'USDC')
    const relayer = sim.devnet.keys.relayer.address
    const before = {
      lock: await compactBalanceOf(sim.devnet, 10, usdc10, address),
      relayer10: await balanceOf(sim.devnet, 10, usdc10, relayer),
      dest: await balanceOf(sim.devnet, DEST, usdcDest, address),
    }
    expect(before).toMatchObject({ lock: usdc(40), dest: 0n })

    const result = await account.sendTransaction({
      sourceChains: [optimism],
      targetChain: base,
      tokenRequests: [{ address: usdcDest, amount: usdc(25) }],
    })
    const execution = (await account.waitForExecution(result)) as {
      fill: { hash: Hex }
      claims: { hash: Hex; chainId: number }[]
    }
    const { body, seen } = await http.follow(`/intent-operation/${(result as { id: bigint }).id}`, ALPS)
    expect(body.status).toBe('COMPLETED')
    expect(isForwardRunToCompleted(seen)).toBe(true)
    expect(body.userAddress).toBe(address)
    expect(execution.fill.hash).toBe(body.fillTransactionHash)
    expect(execution.claims.map((c) => c.chainId)).toEqual([10])
    await expectAlpsHashes(body)

    // Destination: the account received exactly what it asked for. Origin: its lock paid the
    // amount plus fees, to the relayer (the underlying token).
    expect(await balanceOf(sim.devnet, DEST, usdcDest, address)).toBe(usdc(25))
    const spent = before.lock - (await compactBalanceOf(sim.devnet, 10, usdc10, address))
    expect(spent).toBeGreaterThan(usdc(25))
    expect(spent).toBeLessThan(usdc(40))
    expect((await balanceOf(sim.devnet, 10, usdc10, relayer)) - before.relayer10).toBe(spent)
    // The relayer deployed the account from the SDK's setupOps on both chains (the origin's
    // Compact claim checks its ERC-1271 signature there).
    expect(await hasCode(DEST, address)).toBe(true)
    expect(await hasCode(10, address)).toBe(true)
  }, 120_000)

  it('refuses an alps intent whose destination signature is forged, or whose destination ops differ from the signed Mandate: 400 naming destinationSignature, nothing sent', async () => {
    const account = await nexusAccountFor(sim.devnet.chain(10).publicClient, owner('sdk with calls'))
    const address = account.address
    await depositToCompactFor(sim.devnet, funder(0), 10, 'USDC', usdc(40), address)
    const relayerNonces = async () =>
      Promise.all(
        [10, DEST].map((c) =>
          sim.devnet.chain(c).publicClient.getTransactionCount({ address: sim.devnet.keys.relayer.address }),
        ),
      )
    const nonces = await relayerNonces()
    const route = await http.call(
      'POST',
      '/intents/route',
      {
        destinationChainId: DEST,
        tokenRequests: [{ tokenAddress: tokenAddress(DEST, 'USDC'), amount: usdc(5).toString() }],
        account: { address, accountType: 'ERC7579', setupOps: account.setupOps },
        accountAccessList: { chainIds: [10] },
        destinationExecutions: [bump(3n)],
      },
      ALPS,
    )
    expect(route.status, JSON.stringify(route.body)).toBe(200)
    const intentOp = route.body.intentOp
    const originSignatures = [await signAs(account.signer, compactTypedData(intentOp))]
    // Forged: a stranger's signature over the same origin typed data.
    const forged = await signAs({ kind: 'EOA', account: owner('forger') }, compactTypedData(intentOp))
    const refusedForged = await http.call('POST', '/intent-operations', {
      signedIntentOp: { ...intentOp, originSignatures, destinationSignature: forged },
    })
    expect(refusedForged.status).toBe(400)
    expect(JSON.stringify(refusedForged.body)).toMatch(
      /destinationSignature: It is neither one of the origin signatures/,
    )
    // Ops changed after the quote: the server signature no longer matches.
    const changed = structuredClone(intentOp)
    changed.elements[0].mandate.destinationOps.ops[0].data = bump(300n).data
    const refusedChanged = await http.call('POST', '/intent-operations', {
      signedIntentOp: { ...changed, originSignatures, destinationSignature: originSignatures[0] },
    })
    expect(refusedChanged.status).toBe(400)
    expect(JSON.stringify(refusedChanged.body)).toMatch(/serverSignature/)
    // The sponsor signed other ops than the quoted ones: its origin signature, sent as the
    // destination signature (as the SDK does), does not cover the ops the intent carries.
    const otherOps = await signAs(account.signer, compactTypedData(changed))
    const refusedOther = await http.call('POST', '/intent-operations', {
      signedIntentOp: { ...intentOp, originSignatures: [otherOps], destinationSignature: otherOps },
    })
    expect(refusedOther.status).toBe(400)
    expect(JSON.stringify(refusedOther.body)).toMatch(
      /destinationSignature: It repeats originSignatures\[0\], which does not verify on chain 8453/,
    )
    // Nothing reached a chain: no relayer transaction, no deployment, no state change.
    expect(await relayerNonces()).toEqual(nonces)
    expect(await hasCode(DEST, address)).toBe(false)
    expect(await counts(address)).toBe(0n)
    expect(await compactBalanceOf(sim.devnet, 10, tokenAddress(10, 'USDC'), address)).toBe(usdc(40))
  }, 60_000)
})

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
