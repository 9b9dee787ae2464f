// Own devnet, not the shared one: the in-process quoting on a 2-chain devnet, and the Devnet object's keys (allocator, relayer) for the arbiter's dry runs.
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { type Address, erc20Abi, type Hex, hashTypedData, maxUint256 } from 'viem'
import { describe, expect, test } from 'vitest'
import { addresses } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { AlpsRouteResponse, BlancRouteResponse, type IntentOp } from '../../spec'
import { verifyServerSignature } from '../signing/serverSignature'
import { errorOf, usdc } from './testing/routeRequests'
import { USDC, useQuotingDevnet } from './testing/useQuotingDevnet'
import type { StoredQuotedIntent } from './types'

const require = createRequire(import.meta.url)
const sdkDir = dirname(require.resolve('@rhinestone/sdk'))
const sdkPermit2 = require(join(sdkDir, 'execution/permit2.js'))
const sdkCompact = require(join(sdkDir, 'execution/compact.js'))

const fx = useQuotingDevnet()
const { account, request, dryRunCompactClaim } = fx

/** The SDK's Mandate message (bigint form) as the arbiter's argument: kept independent of contractArgs on purpose. */
// biome-ignore lint/suspicious/noExplicitAny: Mandate message in JSON form or the SDK's bigint form
function toMandateArg(m: any) {
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const op = (o: any) => ({
    vt: o.vt as Hex,
    ops: o.ops.map((x: any) => ({ to: x.to, value: BigInt(x.value), data: x.data })),
  })
  return {
    target: {
      recipient: m.target.recipient as Address,
      // biome-ignore lint/suspicious/noExplicitAny: as above
      tokenOut: m.target.tokenOut.map((x: any) => ({ token: x.token as Address, amount: BigInt(x.amount) })),
      targetChain: BigInt(m.target.targetChain),
      fillExpiry: BigInt(m.target.fillExpiry),
    },
    minGas: BigInt(m.minGas),
    originOps: op(m.originOps),
    destOps: op(m.destOps),
    q: m.q as Hex,
  }
}

describe('blanc routes', () => {
  test('one route per chain able to fund, sorted by cost, signed data our contracts verify', async () => {
    const response = await fx.quoting.routeBlanc(request())
    expect(BlancRouteResponse.safeParse(response).success).toBe(true)
    expect(response.routes.length).toBeGreaterThanOrEqual(2)
    const costs = response.routes.map(
      (r) => (r.cost as unknown as { fees: { totalUsd: number } }).fees.totalUsd,
    )
    expect([...costs].sort((a, b) => a - b)).toEqual(costs)
    expect(fx.quoting.lastQuoteRpcRoundTrips()).toBeLessThanOrEqual(fx.devnet.chains.length)

    // Same-token routes and swap routes (the account also holds WETH and USDT), all checked below.
    const kinds = new Set<string>()
    for (const route of response.routes) {
      const stored = fx.quoting.quotes.get(route.intentId)?.quote as StoredQuotedIntent
      expect(stored).toBeDefined()
      // The store keeps what a submission needs; the typed data and cost went out in the route.
      expect(Object.keys(stored)).not.toContain('signData')
      expect(Object.keys(stored)).not.toContain('intentCost')
      // A blanc route's IntentOp is signed by the server only when it is submitted (it never leaves
      // the server): unsigned in the store, then signed over the very same fields.
      expect(stored.intentOp.serverSignature).toBe('0x')
      const signedOp = await stored.signedIntentOp()
      expect({ ...signedOp, serverSignature: '0x' }).toEqual(stored.intentOp)
      expect(await verifyServerSignature(signedOp, fx.devnet.keys.server.address)).toBe(true)
      expect(await stored.signedIntentOp()).toBe(signedOp)
      // Lock ids with a non-zero top byte (the SDK slices toHex(id)).
      for (const e of stored.intentOp.elements)
        for (const [id] of e.idsAndAmounts) expect(BigInt(id) >> 248n).not.toBe(0n)

      // Cost arithmetic: what the inputs pay for (in the output token; 1:1 for the same token) =
      // output + every fee part, exactly, in raw units; swapped inputs are worth at least that at the prices.
      const cost = route.cost as unknown as {
        input: {
          amount: string
          symbol: string
          kind: string
          usd: number
          forOutput: { tokenAddress: string; amount: string }
        }[]
        output: { amount: string; usd: number }[]
        fees: { breakdown: Record<string, { usd: number; amounts: { amount: string }[] }>; totalUsd: number }
      }
      const inSum = cost.input.reduce((s, i) => s + BigInt(i.forOutput.amount), 0n)
      const feeSum = Object.values(cost.fees.breakdown).reduce(
        (s, f) => s + BigInt(f.amounts[0]?.amount ?? '0'),
        0n,
      )
      expect(inSum).toBe(BigInt(cost.output[0]?.amount ?? '0') + feeSum)
      for (const input of cost.input) {
        if (input.kind === 'SAME') expect(input.amount).toBe(input.forOutput.amount)
        if (input.kind === 'SWAP')
          expect(input.usd).toBeGreaterThanOrEqual(Number(input.forOutput.amount) / 1e6 - 1e-6)
      }
      const swapFee = BigInt(cost.fees.breakdown.swap?.amounts[0]?.amount ?? '0')
      const swapped = cost.input
        .filter((i) => i.kind === 'SWAP')
        .reduce((s, i) => s + BigInt(i.forOutput.amount), 0n)
      expect(swapFee).toBe((swapped * 10n + 9_999n) / 10_000n)
      kinds.add(cost.input.some((i) => i.kind === 'SWAP') ? 'swap' : 'same')
      const usdSum = Object.values(cost.fees.breakdown).reduce((s, f) => s + Math.round(f.usd * 1e6), 0)
      expect(usdSum).toBe(Math.round(cost.fees.totalUsd * 1e6))
      expect(cost.fees.breakdown.gas?.usd).toBeGreaterThan(0)

      // Sign the origin typed data exactly as given; the arbiter's claim (dry run) accepts it.
      const origin = route.signData.origin[0] as Parameters<typeof account0.signTypedData>[0]
      const account0 = account(0).account
      const signature = await account0.signTypedData(origin)
      if (stored.fundingMethod === 'COMPACT')
        for (const [i] of stored.intentOp.elements.entries())
          await dryRunCompactClaim(stored.intentOp, signature, i)

      // Destination typed data: its digest is the executor's own.
      const dest = route.signData.destination as Parameters<typeof hashTypedData>[0]
      const digest = await fx.devnet.chain(8453).publicClient.readContract({
        address: addresses.intentExecutor,
        abi: artifacts.IntentExecutor.abi,
        functionName: 'getSingleChainOpsDigest',
        args: [
          {
            account: account(0).address,
            nonce: BigInt(stored.intentOp.nonce),
            op: { vt: `0x${'00'.repeat(32)}`, ops: [] },
            gasRefund: {
              token: '0x0000000000000000000000000000000000000000',
              exchangeRate: 0n,
              overhead: 0n,
            },
          },
        ],
      })
      expect(hashTypedData(dest)).toBe(digest)
    }
    expect([...kinds].sort()).toEqual(['same', 'swap'])
  })

  test('an SDK 1.x COMPACT signature (legacy domain) is accepted too', async () => {
    const alps = await fx.quoting.routeAlps(request())
    expect(alps.intentOp.elements[0]?.mandate.qualifier.settlementContext.fundingMethod).toBe('COMPACT')
    const typed = sdkCompact.getCompactTypedData(alps.intentOp)
    const signature = await account(0).account.signTypedData(typed)
    await dryRunCompactClaim(alps.intentOp, signature, 0)
    // The same claim with another signer's signature reverts: the dry runs can fail.
    const wrong = await account(2).account.signTypedData(typed)
    await expect(dryRunCompactClaim(alps.intentOp, wrong, 0)).rejects.toThrow()
  })

  test('insufficient funds: blanc 422 with details, alps hasFulfilledAll false with tokenRequirements', async () => {
    const big = request({
      tokenRequests: [{ tokenAddress: USDC(8453), amount: usdc(50_000_000).toString() }],
    })
    const error = await errorOf(fx.quoting.routeBlanc(big))
    expect(error?.code).toBe('INSUFFICIENT_LIQUIDITY')
    expect(error?.data?.tokenRequirements).toBeDefined()
    const alps = await fx.quoting.routeAlps(big)
    expect(AlpsRouteResponse.safeParse(alps).success).toBe(true)
    expect(alps.intentCost.hasFulfilledAll).toBe(false)
    expect(Object.keys(alps.tokenRequirements ?? {})).toEqual([USDC(8453)])
    // "for externally owned accounts only": a smart account's best effort has none.
    const smart = await fx.quoting.routeAlps({
      ...big,
      account: { ...big.account, accountType: 'smartAccount' },
    })
    expect(smart.intentCost.hasFulfilledAll).toBe(false)
    expect(smart.tokenRequirements).toBeUndefined()
  })

  test('a multi-chain split when no single chain can fund', async () => {
    // Same token only (no swaps from WETH, ETH or USDT): 10,000 USDC locked per chain.
    const response = await fx.quoting.routeBlanc(
      request({
        tokenRequests: [{ tokenAddress: USDC(8453), amount: usdc(15_000).toString() }],
        accountAccessList: { exclude: { tokens: ['WETH', 'ETH', 'USDT'] } },
      }),
    )
    const stored = fx.quoting.quotes.get(response.routes[0]?.intentId ?? '')?.quote as StoredQuotedIntent
    expect(stored.originChainIds).toEqual([8453, 1])
    expect(stored.intentOp.elements).toHaveLength(2)
    const signature = await account(0).account.signTypedData(response.routes[0]?.signData.origin[0] as never)
    await dryRunCompactClaim(stored.intentOp, signature, 0)
    await dryRunCompactClaim(stored.intentOp, signature, 1)
  })

  test('accountAccessList restricts chains and tokens (by address or symbol)', async () => {
    const only1 = await fx.quoting.routeBlanc(request({ accountAccessList: { chainIds: [1] } }))
    for (const r of only1.routes) expect(fx.quoting.quotes.get(r.intentId)?.quote.originChainIds).toEqual([1])
    const byToken = await fx.quoting.routeBlanc(
      request({ accountAccessList: { chainTokens: { '8453': ['USDC'] } } }),
    )
    for (const r of byToken.routes)
      expect(fx.quoting.quotes.get(r.intentId)?.quote.originChainIds).toEqual([8453])
    // Without USDC the request is swapped from what is left, never from an excluded token.
    const noUsdc = await fx.quoting.routeBlanc(
      request({ accountAccessList: { exclude: { tokens: [USDC(1), 'usdc'] } } }),
    )
    for (const r of noUsdc.routes)
      for (const s of fx.quoting.quotes.get(r.intentId)?.quote.sources.flat() ?? [])
        expect(['WETH', 'USDT', 'ETH']).toContain(s.symbol)
    const onlyWeth = await fx.quoting.routeBlanc(
      request({ accountAccessList: { tokens: ['WETH'], chainIds: [1] } }),
    )
    for (const r of onlyWeth.routes)
      expect(
        fx.quoting.quotes
          .get(r.intentId)
          ?.quote.sources.flat()
          .map((s) => [s.chainId, s.symbol]),
      ).toEqual([[1, 'WETH']])
    const excluded = await errorOf(
      fx.quoting.routeBlanc(
        request({ accountAccessList: { exclude: { tokens: [USDC(1), 'usdc', 'WETH', 'ETH', 'USDT'] } } }),
      ),
    )
    expect(excluded?.code).toBe('INSUFFICIENT_LIQUIDITY')
    const unknown = await errorOf(
      fx.quoting.routeBlanc(request({ accountAccessList: { chainIds: [10], tokens: ['DOGE'] } })),
    )
    expect(unknown?.code).toBe('VALIDATION_ERROR')
    expect(unknown?.message).toContain('10')
  })

  test('sponsorship moves gas and bridge fees off the user', async () => {
    const plain = await fx.quoting.routeAlps(request({ accountAccessList: { chainIds: [1] } }))
    const sponsored = await fx.quoting.routeAlps(
      request({
        accountAccessList: { chainIds: [1] },
        options: { sponsorSettings: { gasSponsored: true, bridgeFeesSponsored: true } },
      }),
    )
    const fee = (r: typeof plain) => r.intentCost.tokensReceived[0]?.feeBreakdown
    expect(BigInt(fee(plain)?.gasFee ?? '0')).toBeGreaterThan(0n)
    expect(BigInt(fee(plain)?.bridgeFee ?? '0')).toBeGreaterThan(0n)
    expect(fee(sponsored)?.gasFee).toBe('0')
    expect(fee(sponsored)?.bridgeFee).toBe('0')
    expect(sponsored.intentCost.sponsorFee.relayer).toBeGreaterThan(0)
    const t = sponsored.intentCost.tokensReceived[0] as unknown as {
      amountSpentRaw: string
      targetAmountRaw: string
      feeRaw: string
      feeBreakdown: Record<string, string>
    }
    expect(BigInt(t.amountSpentRaw)).toBe(BigInt(t.targetAmountRaw) + BigInt(t.feeRaw))
    expect(Object.values(t.feeBreakdown).reduce((s, v) => s + BigInt(v), 0n)).toBe(BigInt(t.feeRaw))
  })

  test('400s: unknown accountType, destination not run, unknown token', async () => {
    const type = await errorOf(
      fx.quoting.routeAlps(request({ account: { address: account(0).address, accountType: 'Safe' } })),
    )
    expect(type?.code).toBe('VALIDATION_ERROR')
    expect(type?.message).toContain('EOA, smartAccount, ERC7579')
    const dest = await errorOf(fx.quoting.routeAlps(request({ destinationChainId: 10 })))
    expect(dest?.message).toContain('10')
    const token = await errorOf(
      fx.quoting.routeAlps(request({ tokenRequests: [{ tokenAddress: USDC(1), amount: '1' }] })),
    )
    expect(token?.code).toBe('VALIDATION_ERROR')
    expect(token?.message).toContain(USDC(1))
  })

  test('400: destinationGasUnits past a uint128 (the Mandate minGas), in both versions, even when gas is sponsored', async () => {
    const huge = request({
      destinationExecutions: [{ to: account(1).address, value: '0', data: '0x' }],
      destinationGasUnits: (2n ** 128n).toString(),
      options: { sponsorSettings: { gasSponsored: true } },
    })
    for (const route of [fx.quoting.routeAlps, fx.quoting.routeBlanc]) {
      const error = await errorOf(route(huge))
      expect(error?.code).toBe('VALIDATION_ERROR')
      expect(error?.message).toContain('destinationGasUnits')
    }
    // The largest uint128 is a quote (gas sponsored, so the user's cost does not explode).
    const max = await fx.quoting.routeAlps({ ...huge, destinationGasUnits: (2n ** 128n - 1n).toString() })
    expect(max.intentOp.elements[0]?.mandate.minGas).toBe((2n ** 128n - 1n).toString())
  })
})

describe('alps with Permit2 (EOA) and the SDK 1.x', () => {
  test('an EOA that approved Permit2 gets a PERMIT2 intent the SDK signs and the arbiter accepts', async () => {
    const eoa = account(1)
    const chain = fx.devnet.chain(1)
    const wallet = (await import('viem')).createWalletClient({
      chain: chain.chain,
      transport: (await import('viem')).http(chain.rpcUrl),
      account: eoa.account,
    })
    const hash = await wallet.writeContract({
      address: USDC(1),
      abi: erc20Abi,
      functionName: 'approve',
      args: [addresses.permit2, maxUint256],
    })
    await chain.publicClient.waitForTransactionReceipt({ hash })
    const response = await fx.quoting.routeAlps(
      request({
        account: { address: eoa.address, accountType: 'EOA', setupOps: [] },
        tokenRequests: [{ tokenAddress: USDC(8453), amount: usdc(20_000).toString() }],
      }),
    )
    expect(AlpsRouteResponse.safeParse(response).success).toBe(true)
    const { intentOp } = response
    expect(await verifyServerSignature(intentOp, fx.devnet.keys.server.address)).toBe(true)
    expect(
      await verifyServerSignature(
        { ...intentOp, nonce: String(BigInt(intentOp.nonce) + 1n) },
        fx.devnet.keys.server.address,
      ),
    ).toBe(false)
    const element = intentOp.elements[0] as IntentOp['elements'][number]
    expect(element.mandate.qualifier.settlementContext.fundingMethod).toBe('PERMIT2')
    const typed = sdkPermit2.getTypedData(element, BigInt(intentOp.nonce), BigInt(intentOp.expires))
    const signature = await eoa.account.signTypedData(typed)
    await chain.publicClient.simulateContract({
      account: fx.devnet.keys.relayer.account,
      address: addresses.arbiter,
      abi: artifacts.IntentArbiter.abi,
      functionName: 'claimPermit2',
      args: [
        {
          sponsor: intentOp.sponsor as Address,
          nonce: BigInt(intentOp.nonce),
          expires: BigInt(intentOp.expires),
          idsAndAmounts: element.idsAndAmounts.map(
            ([id, amount]) => [BigInt(id), BigInt(amount)] as [bigint, bigint],
          ),
          mandate: toMandateArg(typed.message.mandate),
          signature,
        },
      ],
    })
  })
})
