// Own simulator: a quote store with a tiny memory budget, so the refusal is reached for real over HTTP.
import { parseUnits } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { tokensByChain } from '../../contracts/addresses'
import { type Simulator, startSimulator } from '../startSimulator'

let sim: Simulator
const usdc = tokensByChain[8453]?.find((t) => t.symbol === 'USDC')?.address as string
const headers = () => ({
  'x-api-key': sim.apiKey,
  'x-api-version': '2026-04.blanc',
  'content-type': 'application/json',
})
const quote = () =>
  fetch(`${sim.baseUrl}/intents/route`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({
      destinationChainId: 8453,
      tokenRequests: [{ tokenAddress: usdc, amount: parseUnits('1', 6).toString() }],
      account: { address: sim.devnet.keys.accounts[0]?.address, accountType: 'EOA' },
    }),
  })
/** A submit with well-formed, wrong signatures: 400 while the quote is kept, 404 once it is not. */
const probe = async (intentId: string) => {
  const wrong = `0x${'11'.repeat(65)}`
  const response = await fetch(`${sim.baseUrl}/intents/${intentId}/submit`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ signatures: { origin: [wrong], destination: wrong } }),
  })
  return response.status
}

beforeAll(async () => {
  // Room for the routes of one quote (a few hundred bytes each), not of two.
  // No port given: startSimulator picks a free one (only `intent-devnet up` defaults to 4000).
  sim = await startSimulator({ chainIds: [8453], quoteStoreBytes: 4_000 })
  expect(Number(new URL(sim.baseUrl).port)).not.toBe(4000)
})
afterAll(() => sim?.close())

it('a full quote store answers 503 QUOTE_STORE_FULL with Retry-After, and keeps every live quote', async () => {
  const first = await quote()
  expect(first.status).toBe(200)
  const { routes } = (await first.json()) as { routes: { intentId: string; expiresAt: number }[] }
  expect(routes.length).toBeGreaterThan(0)

  let refused: Response | undefined
  for (let i = 0; i < 10 && !refused; i++) {
    const next = await quote()
    if (next.status === 503) refused = next
    else await next.arrayBuffer()
  }
  expect(refused?.status).toBe(503)
  const body = (await refused?.json()) as {
    code: string
    message: string
    details: { retryAfterSeconds: number }
  }
  expect(body.code).toBe('QUOTE_STORE_FULL')
  expect(body.message).toMatch(/quote store is full.*Retry in \d+ s/)
  const retryAfter = Number(refused?.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(300)
  expect(body.details.retryAfterSeconds).toBe(retryAfter)

  // Every route given out still answers (400: kept, the signatures are wrong), none is 404.
  for (const route of routes) expect(await probe(route.intentId)).toBe(400)

  // Once they expire there is room again.
  await fetch(`${sim.baseUrl}/_devnet/clock/advance`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ seconds: 300 }),
  })
  expect((await quote()).status).toBe(200)
})
