// Own devnet, not the shared one: it counts the in-process quoting's eth_calls per chain of a 2-chain devnet and uses the Devnet object (clock, keys).
import { serializerCompiler } from 'fastify-type-provider-zod'
import { createWalletClient, erc20Abi, http, maxUint256 } from 'viem'
import { describe, expect, test } from 'vitest'
import { addresses, tokensByChain } from '../../contracts/addresses'
import { AlpsRouteResponse, BlancRouteResponse, type RouteRequest } from '../../spec'
import { buildApp } from '../http/app'
import { stubServices } from '../http/testing/stubServices'
import { isTrustedResponse } from '../http/trustedResponse'
import { toAlpsRoute } from '../http/versions/toAlpsRoute'
import { toBlancRouteResponse } from '../http/versions/toBlancRoute'
import { createBalanceClients } from './createBalanceClients'
import { createBalanceReader } from './createBalanceReader'
import { readBalances } from './readBalances'
import { usdc } from './testing/routeRequests'
import { USDC, useQuotingDevnet } from './testing/useQuotingDevnet'
import type { ChainHoldings } from './types'

const fx = useQuotingDevnet()
const { account, request } = fx

test('round trips: one eth_call per chain per quote; concurrent quotes share them', async () => {
  const before = fx.quoting.rpcRoundTrips()
  await fx.quoting.routeAlps(request())
  expect(fx.quoting.lastQuoteRpcRoundTrips()).toBe(fx.devnet.chains.length)
  expect(fx.quoting.rpcRoundTrips() - before).toBe(fx.devnet.chains.length)
  // Eight quotes for two accounts asked in the same turn of the event loop: one eth_call per chain
  // reads both accounts.
  const concurrent = fx.quoting.rpcRoundTrips()
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      fx.quoting.routeBlanc(request({ account: { address: account(i % 2).address, accountType: 'EOA' } })),
    ),
  )
  expect(fx.quoting.rpcRoundTrips() - concurrent).toBe(fx.devnet.chains.length)
  // Each account got its own holdings: the same routes as a lone quote for it.
  const alone = await fx.quoting.routeBlanc(
    request({ account: { address: account(1).address, accountType: 'EOA' } }),
  )
  const costs = (r: typeof alone) => r.routes.map((route) => JSON.stringify(route.cost))
  expect(costs(answers[1] as typeof alone)).toEqual(costs(alone))
})

test('a coalesced read never serves a quote asked after it was sent: a transfer mined in between is seen', async () => {
  const holder = account(3)
  const usdc8453 = USDC(8453)
  const chain = fx.devnet.chain(8453)
  const wallet = createWalletClient({
    account: holder.account,
    chain: chain.chain,
    transport: http(chain.rpcUrl),
  })
  const lockedIn = (r: Awaited<ReturnType<typeof fx.quoting.routeAlps>>) =>
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
  expect(lockedIn(await fx.quoting.routeAlps(want(held / 2n)))).toBe('funded')
  // A first quote, whose reads are handed to the transport; while they are in flight the holder
  // sends all its USDC away, then a second quote is asked: it must not reuse the first one's reads.
  const sent = fx.quoting.rpcRoundTrips()
  const first = fx.quoting.routeAlps(want(held / 2n))
  while (fx.quoting.rpcRoundTrips() === sent) await new Promise((resolve) => setImmediate(resolve))
  await wallet.writeContract({
    address: usdc8453,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [account(2).address, held],
  })
  const second = await fx.quoting.routeAlps(want(held / 2n))
  await first // funded or short: it may see the transfer or not, as it was asked before it
  expect(lockedIn(second)).toBe('short')
  expect(fx.quoting.rpcRoundTrips() - sent).toBe(2 * fx.devnet.chains.length)
})

test('readBalances: accounts read together share one HTTP request per chain; unchanged answers are decoded once', async () => {
  const { chains, rpc } = createBalanceReader({
    clients: createBalanceClients({ chains: fx.devnet.chains }),
    tokens: tokensByChain,
  })
  const [a, b] = [account(0).address, account(1).address]
  const [first, second] = await Promise.all([readBalances(chains, a), readBalances(chains, b)])
  expect(rpc.count).toBe(fx.devnet.chains.length)
  const usdcOf = (holdings: ChainHoldings[] | undefined, chainId: number) =>
    holdings?.find((h) => h.chainId === chainId)?.tokens.find((t) => t.token.symbol === 'USDC')
  // Each account its own balances, as a direct read says.
  for (const [who, holdings] of [
    [a, first],
    [b, second],
  ] as const)
    expect(usdcOf(holdings, 8453)?.wallet).toBe(
      await fx.devnet.chain(8453).publicClient.readContract({
        address: USDC(8453),
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [who],
      }),
    )
  // Nothing changed: the same answer bytes, so the same frozen holdings (no second decode).
  const again = await readBalances(chains, a)
  expect(rpc.count).toBe(2 * fx.devnet.chains.length)
  expect(again[0]).toBe(first?.[0])
  expect(Object.isFrozen(again[0]) && Object.isFrozen(again[0]?.tokens[0])).toBe(true)
  // A transfer changes the answer: new holdings with the new balance.
  const wallet = createWalletClient({
    account: account(1).account,
    chain: fx.devnet.chain(8453).chain,
    transport: http(fx.devnet.chain(8453).rpcUrl),
  })
  await wallet.writeContract({ address: USDC(8453), abi: erc20Abi, functionName: 'transfer', args: [a, 1n] })
  const after = await readBalances(chains, a)
  expect(usdcOf(after, 8453)?.wallet).toBe((usdcOf(first, 8453)?.wallet ?? 0n) + 1n)
  expect(after.find((h) => h.chainId === 1)).toBe(first?.find((h) => h.chainId === 1))
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
        clock: fx.devnet,
        quoting: {
          ...fx.quoting,
          quoteBest: async (body) => {
            const result = await fx.quoting.quoteBest(body)
            answers.alps = toAlpsRoute(result)
            return result
          },
          quoteEvery: async (body) => {
            const kept = await fx.quoting.quoteEvery(body)
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
    const app = await buildApp({ apiKeys: ['k'] }, stubServices({ clock: fx.devnet, quoting: fx.quoting }))
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
