// Own devnet, not the shared one: it counts the in-process quoting's eth_calls per chain of a 2-chain devnet and uses the Devnet object (clock, keys).
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { serializerCompiler } from 'fastify-type-provider-zod'
import {
  type Address,
  createWalletClient,
  erc20Abi,
  type Hex,
  hashTypedData,
  http,
  maxUint256,
  parseUnits,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { addresses, tokensByChain } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { AlpsRouteResponse, BlancRouteResponse, type IntentOp, type RouteRequest } from '../../spec'
import type { Devnet } from '../devnet/startDevnet'
import { startDevnet } from '../devnet/startDevnet'
import { buildApp } from '../http/app'
import type { ApiError } from '../http/errorCodes'
import { toApiErrorOfDomain } from '../http/errorMapping'
import { stubServices } from '../http/testing/stubServices'
import type { VersionedQuoting } from '../http/testing/versionedQuoting'
import { isTrustedResponse } from '../http/trustedResponse'
import { toAlpsRoute } from '../http/versions/toAlpsRoute'
import { toBlancRouteResponse } from '../http/versions/toBlancRoute'
import { allocatorDigest, compactClaimArg, compactHashes } from '../settlement/contractArgs'
import { verifyServerSignature } from '../signing/serverSignature'
import { createBalanceClients } from './createBalanceClients'
import { createBalanceReader } from './createBalanceReader'
import type { QuotingServiceInstance } from './createQuotingService'
import { readBalances } from './readBalances'
import { createTestQuoting } from './testing/createTestQuoting'
import type { ChainHoldings, StoredQuotedIntent } from './types'

const require = createRequire(import.meta.url)
const sdkDir = dirname(require.resolve('@rhinestone/sdk'))
const sdkPermit2 = require(join(sdkDir, 'execution/permit2.js'))
const sdkCompact = require(join(sdkDir, 'execution/compact.js'))

let devnet: Devnet
let quoting: QuotingServiceInstance & VersionedQuoting
const USDC = (chainId: number) => tokensByChain[chainId]?.find((t) => t.symbol === 'USDC')?.address as Address
const usdc = (n: number) => parseUnits(String(n), 6)

beforeAll(async () => {
  devnet = await startDevnet({ chainIds: [1, 8453], accountCount: 4 })
  quoting = createTestQuoting({ chains: devnet.chains, server: devnet.keys.server.account, clock: devnet })
}, 120_000)
afterAll(async () => {
  await devnet?.stop()
})

const account = (i: number) => devnet.keys.accounts[i] as (typeof devnet.keys.accounts)[number]
const request = (overrides: Partial<RouteRequest> = {}): RouteRequest => ({
  destinationChainId: 8453,
  tokenRequests: [{ tokenAddress: USDC(8453), amount: usdc(100).toString() }],
  account: { address: account(0).address, accountType: 'EOA' },
  ...overrides,
})

async function errorOf(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    // As the HTTP layer answers it: the domain error mapped onto the error-code table.
    (e) => toApiErrorOfDomain(e) as ApiError,
  )
}

/** The Compact claim the relayer would send for element `index` (its own argument builders), dry-run against the arbiter. */
async function dryRunCompactClaim(intentOp: IntentOp, signature: Hex, index: number) {
  const element = intentOp.elements[index] as IntentOp['elements'][number]
  const chain = devnet.chain(Number(element.chainId))
  const separator = await chain.publicClient.readContract({
    address: addresses.compact,
    abi: artifacts.TheCompact.abi,
    functionName: 'DOMAIN_SEPARATOR',
  })
  const allocatorData = await devnet.keys.allocator.account.sign({
    hash: allocatorDigest(separator, compactHashes(intentOp).claimHash),
  })
  // The same signature for every element: a MultichainCompact is signed once.
  const originSignatures = intentOp.elements.map(() => signature)
  const signed = { intentOp, originSignatures, destinationSignature: signature, setupOps: [] }
  return chain.publicClient.simulateContract({
    account: devnet.keys.relayer.account,
    address: addresses.arbiter,
    abi: artifacts.IntentArbiter.abi,
    functionName: 'claimCompact',
    args: [compactClaimArg(signed, index, allocatorData)],
  })
}

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

test('round trips: one eth_call per chain per quote; concurrent quotes share them', async () => {
  const before = quoting.rpcRoundTrips()
  await quoting.routeAlps(request())
  expect(quoting.lastQuoteRpcRoundTrips()).toBe(devnet.chains.length)
  expect(quoting.rpcRoundTrips() - before).toBe(devnet.chains.length)
  // Eight quotes for two accounts asked in the same turn of the event loop: one eth_call per chain
  // reads both accounts.
  const concurrent = quoting.rpcRoundTrips()
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      quoting.routeBlanc(request({ account: { address: account(i % 2).address, accountType: 'EOA' } })),
    ),
  )
  expect(quoting.rpcRoundTrips() - concurrent).toBe(devnet.chains.length)
  // Each account got its own holdings: the same routes as a lone quote for it.
  const alone = await quoting.routeBlanc(
    request({ account: { address: account(1).address, accountType: 'EOA' } }),
  )
  const costs = (r: typeof alone) => r.routes.map((route) => JSON.stringify(route.cost))
  expect(costs(answers[1] as typeof alone)).toEqual(costs(alone))
})

test('a coalesced read never serves a quote asked after it was sent: a transfer mined in between is seen', async () => {
  const holder = account(3)
  const usdc8453 = USDC(8453)
  const chain = devnet.chain(8453)
  const wallet = createWalletClient({
    account: holder.account,
    chain: chain.chain,
    transport: http(chain.rpcUrl),
  })
  const lockedIn = (r: Awaited<ReturnType<typeof quoting.routeAlps>>) =>
    r.intentCost.hasFulfilledAll ? 'funded' : 'short'
  const want = (amount: bigint) =>
    request({
      tokenRequests: [{ tokenAddress: usdc8453, amount: amount.toString() }],
      account: { address: holder.address, accountType: 'EOA' },
      accountAccessList: { chainIds: [8453] },
    })
  const balance = () =>
    chain.publicClient.readContract({
      address: usdc8453,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [holder.address],
    })
  // Only the wallet counts for this check: let Permit2 take all of it (the Compact lock stays).
  await wallet.writeContract({
    address: usdc8453,
    abi: erc20Abi,
    functionName: 'approve',
    args: [addresses.permit2, maxUint256],
  })
  const held = await balance()
  expect(lockedIn(await quoting.routeAlps(want(held / 2n)))).toBe('funded')
  // A first quote, whose reads are handed to the transport; while they are in flight the holder
  // sends all its USDC away, then a second quote is asked: it must not reuse the first one's reads.
  const sent = quoting.rpcRoundTrips()
  const first = quoting.routeAlps(want(held / 2n))
  while (quoting.rpcRoundTrips() === sent) await new Promise((resolve) => setImmediate(resolve))
  await wallet.writeContract({
    address: usdc8453,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [account(2).address, held],
  })
  const second = await quoting.routeAlps(want(held / 2n))
  await first // funded or short: it may see the transfer or not, as it was asked before it
  expect(lockedIn(second)).toBe('short')
  expect(quoting.rpcRoundTrips() - sent).toBe(2 * devnet.chains.length)
})

test('readBalances: accounts read together share one HTTP request per chain; unchanged answers are decoded once', async () => {
  const { chains, rpc } = createBalanceReader({
    clients: createBalanceClients({ chains: devnet.chains }),
    tokens: tokensByChain,
  })
  const [a, b] = [account(0).address, account(1).address]
  const [first, second] = await Promise.all([readBalances(chains, a), readBalances(chains, b)])
  expect(rpc.count).toBe(devnet.chains.length)
  const usdcOf = (holdings: ChainHoldings[] | undefined, chainId: number) =>
    holdings?.find((h) => h.chainId === chainId)?.tokens.find((t) => t.token.symbol === 'USDC')
  // Each account its own balances, as a direct read says.
  for (const [who, holdings] of [
    [a, first],
    [b, second],
  ] as const)
    expect(usdcOf(holdings, 8453)?.wallet).toBe(
      await devnet.chain(8453).publicClient.readContract({
        address: USDC(8453),
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [who],
      }),
    )
  // Nothing changed: the same answer bytes, so the same frozen holdings (no second decode).
  const again = await readBalances(chains, a)
  expect(rpc.count).toBe(2 * devnet.chains.length)
  expect(again[0]).toBe(first?.[0])
  expect(Object.isFrozen(again[0]) && Object.isFrozen(again[0]?.tokens[0])).toBe(true)
  // A transfer changes the answer: new holdings with the new balance.
  const wallet = createWalletClient({
    account: account(1).account,
    chain: devnet.chain(8453).chain,
    transport: http(devnet.chain(8453).rpcUrl),
  })
  await wallet.writeContract({ address: USDC(8453), abi: erc20Abi, functionName: 'transfer', args: [a, 1n] })
  const after = await readBalances(chains, a)
  expect(usdcOf(after, 8453)?.wallet).toBe((usdcOf(first, 8453)?.wallet ?? 0n) + 1n)
  expect(after.find((h) => h.chainId === 1)).toBe(first?.find((h) => h.chainId === 1))
})

describe('blanc routes', () => {
  test('one route per chain able to fund, sorted by cost, signed data our contracts verify', async () => {
    const response = await quoting.routeBlanc(request())
    expect(BlancRouteResponse.safeParse(response).success).toBe(true)
    expect(response.routes.length).toBeGreaterThanOrEqual(2)
    const costs = response.routes.map(
      (r) => (r.cost as unknown as { fees: { totalUsd: number } }).fees.totalUsd,
    )
    expect([...costs].sort((a, b) => a - b)).toEqual(costs)
    expect(quoting.lastQuoteRpcRoundTrips()).toBeLessThanOrEqual(devnet.chains.length)

    // Same-token routes and swap routes (the account also holds WETH and USDT), all checked below.
    const kinds = new Set<string>()
    for (const route of response.routes) {
      const stored = quoting.quotes.get(route.intentId)?.quote as StoredQuotedIntent
      expect(stored).toBeDefined()
      // The store keeps what a submission needs; the typed data and cost went out in the route.
      expect(Object.keys(stored)).not.toContain('signData')
      expect(Object.keys(stored)).not.toContain('intentCost')
      // A blanc route's IntentOp is signed by the server only when it is submitted (it never leaves
      // the server): unsigned in the store, then signed over the very same fields.
      expect(stored.intentOp.serverSignature).toBe('0x')
      const signedOp = await stored.signedIntentOp()
      expect({ ...signedOp, serverSignature: '0x' }).toEqual(stored.intentOp)
      expect(await verifyServerSignature(signedOp, devnet.keys.server.address)).toBe(true)
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
      const digest = await devnet.chain(8453).publicClient.readContract({
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
    const alps = await quoting.routeAlps(request())
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
    const error = await errorOf(quoting.routeBlanc(big))
    expect(error?.code).toBe('INSUFFICIENT_LIQUIDITY')
    expect(error?.data?.tokenRequirements).toBeDefined()
    const alps = await quoting.routeAlps(big)
    expect(AlpsRouteResponse.safeParse(alps).success).toBe(true)
    expect(alps.intentCost.hasFulfilledAll).toBe(false)
    expect(Object.keys(alps.tokenRequirements ?? {})).toEqual([USDC(8453)])
    // "for externally owned accounts only": a smart account's best effort has none.
    const smart = await quoting.routeAlps({
      ...big,
      account: { ...big.account, accountType: 'smartAccount' },
    })
    expect(smart.intentCost.hasFulfilledAll).toBe(false)
    expect(smart.tokenRequirements).toBeUndefined()
  })

  test('a multi-chain split when no single chain can fund', async () => {
    // Same token only (no swaps from WETH, ETH or USDT): 10,000 USDC locked per chain.
    const response = await quoting.routeBlanc(
      request({
        tokenRequests: [{ tokenAddress: USDC(8453), amount: usdc(15_000).toString() }],
        accountAccessList: { exclude: { tokens: ['WETH', 'ETH', 'USDT'] } },
      }),
    )
    const stored = quoting.quotes.get(response.routes[0]?.intentId ?? '')?.quote as StoredQuotedIntent
    expect(stored.originChainIds).toEqual([8453, 1])
    expect(stored.intentOp.elements).toHaveLength(2)
    const signature = await account(0).account.signTypedData(response.routes[0]?.signData.origin[0] as never)
    await dryRunCompactClaim(stored.intentOp, signature, 0)
    await dryRunCompactClaim(stored.intentOp, signature, 1)
  })

  test('accountAccessList restricts chains and tokens (by address or symbol)', async () => {
    const only1 = await quoting.routeBlanc(request({ accountAccessList: { chainIds: [1] } }))
    for (const r of only1.routes) expect(quoting.quotes.get(r.intentId)?.quote.originChainIds).toEqual([1])
    const byToken = await quoting.routeBlanc(
      request({ accountAccessList: { chainTokens: { '8453': ['USDC'] } } }),
    )
    for (const r of byToken.routes)
      expect(quoting.quotes.get(r.intentId)?.quote.originChainIds).toEqual([8453])
    // Without USDC the request is swapped from what is left, never from an excluded token.
    const noUsdc = await quoting.routeBlanc(
      request({ accountAccessList: { exclude: { tokens: [USDC(1), 'usdc'] } } }),
    )
    for (const r of noUsdc.routes)
      for (const s of quoting.quotes.get(r.intentId)?.quote.sources.flat() ?? [])
        expect(['WETH', 'USDT', 'ETH']).toContain(s.symbol)
    const onlyWeth = await quoting.routeBlanc(
      request({ accountAccessList: { tokens: ['WETH'], chainIds: [1] } }),
    )
    for (const r of onlyWeth.routes)
      expect(
        quoting.quotes
          .get(r.intentId)
          ?.quote.sources.flat()
          .map((s) => [s.chainId, s.symbol]),
      ).toEqual([[1, 'WETH']])
    const excluded = await errorOf(
      quoting.routeBlanc(
        request({ accountAccessList: { exclude: { tokens: [USDC(1), 'usdc', 'WETH', 'ETH', 'USDT'] } } }),
      ),
    )
    expect(excluded?.code).toBe('INSUFFICIENT_LIQUIDITY')
    const unknown = await errorOf(
      quoting.routeBlanc(request({ accountAccessList: { chainIds: [10], tokens: ['DOGE'] } })),
    )
    expect(unknown?.code).toBe('VALIDATION_ERROR')
    expect(unknown?.message).toContain('10')
  })

  test('sponsorship moves gas and bridge fees off the user', async () => {
    const plain = await quoting.routeAlps(request({ accountAccessList: { chainIds: [1] } }))
    const sponsored = await quoting.routeAlps(
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
      quoting.routeAlps(request({ account: { address: account(0).address, accountType: 'Safe' } })),
    )
    expect(type?.code).toBe('VALIDATION_ERROR')
    expect(type?.message).toContain('EOA, smartAccount, ERC7579')
    const dest = await errorOf(quoting.routeAlps(request({ destinationChainId: 10 })))
    expect(dest?.message).toContain('10')
    const token = await errorOf(
      quoting.routeAlps(request({ tokenRequests: [{ tokenAddress: USDC(1), amount: '1' }] })),
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
    for (const route of [quoting.routeAlps, quoting.routeBlanc]) {
      const error = await errorOf(route(huge))
      expect(error?.code).toBe('VALIDATION_ERROR')
      expect(error?.message).toContain('destinationGasUnits')
    }
    // The largest uint128 is a quote (gas sponsored, so the user's cost does not explode).
    const max = await quoting.routeAlps({ ...huge, destinationGasUnits: (2n ** 128n - 1n).toString() })
    expect(max.intentOp.elements[0]?.mandate.minGas).toBe((2n ** 128n - 1n).toString())
  })
})

describe('alps with Permit2 (EOA) and the SDK 1.x', () => {
  test('an EOA that approved Permit2 gets a PERMIT2 intent the SDK signs and the arbiter accepts', async () => {
    const eoa = account(1)
    const chain = devnet.chain(1)
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
    const response = await quoting.routeAlps(
      request({
        account: { address: eoa.address, accountType: 'EOA', setupOps: [] },
        tokenRequests: [{ tokenAddress: USDC(8453), amount: usdc(20_000).toString() }],
      }),
    )
    expect(AlpsRouteResponse.safeParse(response).success).toBe(true)
    const { intentOp } = response
    expect(await verifyServerSignature(intentOp, devnet.keys.server.address)).toBe(true)
    expect(
      await verifyServerSignature(
        { ...intentOp, nonce: String(BigInt(intentOp.nonce) + 1n) },
        devnet.keys.server.address,
      ),
    ).toBe(false)
    const element = intentOp.elements[0] as IntentOp['elements'][number]
    expect(element.mandate.qualifier.settlementContext.fundingMethod).toBe('PERMIT2')
    const typed = sdkPermit2.getTypedData(element, BigInt(intentOp.nonce), BigInt(intentOp.expires))
    const signature = await eoa.account.signTypedData(typed)
    await chain.publicClient.simulateContract({
      account: devnet.keys.relayer.account,
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

describe('HTTP', () => {
  test('quote bodies are sent as built (trusted): they are exactly what the zod response schema would send', async () => {
    const serialize = (schema: typeof AlpsRouteResponse | typeof BlancRouteResponse) =>
      serializerCompiler({ schema, method: 'POST', url: '/intents/route' })
    const usdc8453 = { tokenAddress: USDC(8453), amount: usdc(100).toString() }
    const execution = { to: USDC(8453), value: '0', data: '0x095ea7b3' }
    const bodies: RouteRequest[] = [
      request(),
      request({ tokenRequests: [{ tokenAddress: USDC(8453), amount: usdc(15_000).toString() }] }),
      request({ tokenRequests: [{ tokenAddress: USDC(8453), amount: usdc(50_000_000).toString() }] }),
      request({
        account: { address: account(1).address, accountType: 'ERC7579' },
        recipient: { address: account(2).address },
        tokenRequests: [usdc8453],
        destinationExecutions: [execution],
        options: { sponsorSettings: { gasSponsored: true } },
      } as Partial<RouteRequest>),
    ]
    // The route marks what the service answers as trusted (domain code knows no HTTP): the bodies
    // go through the app, and the service's answers are kept to be checked as the route sent them.
    const answers: { alps?: AlpsRouteResponse | undefined; blanc?: BlancRouteResponse | undefined } = {}
    const app = await buildApp(
      { apiKeys: ['k'] },
      stubServices({
        clock: devnet,
        quoting: {
          ...quoting,
          quoteBest: async (body) => {
            const result = await quoting.quoteBest(body)
            answers.alps = toAlpsRoute(result)
            return result
          },
          quoteEvery: async (body) => {
            const kept = await quoting.quoteEvery(body)
            answers.blanc = toBlancRouteResponse(kept) as BlancRouteResponse
            return kept
          },
        },
      }),
    )
    // What each 200 hands to serialization is marked trusted (sent without a second zod pass):
    // the route's own answer, shaped at the edge, so checked as the route sends it.
    const sentTrusted: boolean[] = []
    app.addHook('preSerialization', async (_request, reply, payload) => {
      if (reply.statusCode === 200) sentTrusted.push(isTrustedResponse(payload))
      return payload
    })
    const route = (body: RouteRequest, version: string) =>
      app.inject({
        method: 'POST',
        url: '/intents/route',
        headers: { 'x-api-key': 'k', 'x-api-version': version },
        payload: body,
      })
    let checked = 0
    for (const body of bodies) {
      answers.alps = undefined
      answers.blanc = undefined
      const alpsSent = await route(body, '2026-01.alps')
      const alps = answers.alps as AlpsRouteResponse | undefined
      expect(alps).toBeDefined()
      const sent = JSON.parse(JSON.stringify(alps))
      expect(alpsSent.json()).toEqual(sent)
      expect(JSON.parse(serialize(AlpsRouteResponse)(alps))).toEqual(sent)
      expect(AlpsRouteResponse.parse(sent)).toEqual(sent)
      // blanc answers 422 when nothing can fund the request (the third body): no body to check.
      const blancSent = await route(body, '2026-04.blanc')
      const blanc = answers.blanc as BlancRouteResponse | undefined
      if (blanc) {
        expect(blancSent.json()).toEqual(JSON.parse(JSON.stringify(blanc)))
        const json = JSON.parse(JSON.stringify(blanc))
        expect(JSON.parse(serialize(BlancRouteResponse)(blanc))).toEqual(json)
        expect(BlancRouteResponse.parse(json)).toEqual(json)
        checked++
      } else expect(blancSent.statusCode).toBe(422)
    }
    expect(checked).toBe(3)
    // Every answer sent trusted: the four alps quotes and the three blanc ones.
    expect(sentTrusted).toEqual(Array.from({ length: bodies.length + checked }, () => true))
    await app.close()
  })

  test('POST /intents/route answers both versions through the app', async () => {
    const app = await buildApp({ apiKeys: ['k'] }, stubServices({ clock: devnet, quoting }))
    const body = request({ account: { address: account(0).address, accountType: 'ERC7579' } })
    const blanc = await app.inject({
      method: 'POST',
      url: '/intents/route',
      headers: { 'x-api-key': 'k', 'x-api-version': '2026-04.blanc' },
      payload: body,
    })
    expect(blanc.statusCode).toBe(200)
    expect(BlancRouteResponse.safeParse(blanc.json()).success).toBe(true)
    const alps = await app.inject({
      method: 'POST',
      url: '/intents/route',
      headers: { 'x-api-key': 'k', 'x-api-version': '2026-01.alps' },
      payload: body,
    })
    expect(alps.statusCode).toBe(200)
    expect(AlpsRouteResponse.safeParse(alps.json()).success).toBe(true)
    expect(alps.json().intentOp.elements[0].mandate.qualifier.settlementContext.using7579).toBe(true)
    const bad = await app.inject({
      method: 'POST',
      url: '/intents/route',
      headers: { 'x-api-key': 'k', 'x-api-version': '2026-04.blanc' },
      payload: { ...body, account: { address: account(0).address, accountType: 'Weird' } },
    })
    expect(bad.statusCode).toBe(400)
    // Call data must be whole bytes: an odd number of hex digits is a 400 naming the field.
    const odd = await app.inject({
      method: 'POST',
      url: '/intents/route',
      headers: { 'x-api-key': 'k', 'x-api-version': '2026-04.blanc' },
      payload: { ...body, destinationExecutions: [{ to: account(1).address, value: '0', data: '0x123' }] },
    })
    expect(odd.statusCode).toBe(400)
    expect(odd.json().message).toContain('destinationExecutions.0.data')
    expect(odd.json().message).toContain('whole bytes')
    await app.close()
  })
})
