import { RhinestoneSDK } from '@rhinestone/sdk'
import { getAddress, type Hex } from 'viem'
import { base, optimism } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { compactTypedData } from '../../simulator/eip712/typedData'
import {
  balanceOf,
  compactBalanceOf,
  signAs,
  tokenAddress,
} from '../../simulator/settlement/testing/buildSignedIntent'
import {
  ALPS,
  depositToCompactFor,
  isForwardRunToCompleted,
} from '../../simulator/settlement/testing/e2eClient'
import { nexusAccountFor } from '../../simulator/settlement/testing/nexusAccount'
import { DEST, usdc, useSimulatorE2e } from './simulator.e2e.fixture'

/**
 * End to end against the composed simulator (startSimulator: devnet + quoting + settlement +
 * withdrawals + deposits + HTTP), exactly as an integrator runs it: the public SDK 1.x for a
 * smart account (our own HTTP clients of both versions: simulatorHttp.e2e.test.ts).
 */
const { sim, http, owner, funder, counts, hasCode, bump, expectAlpsHashes } = useSimulatorE2e()
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
