import { afterAll, beforeAll, expect, test } from 'vitest'
import { tokensByChain } from '../../../contracts/addresses'
import { DepositProcessorRegisterResponse, WebhookEvent, WebhookEventList } from '../../../spec'
import { createDepositProcessor, type DepositChain } from '../../deposits'
import { createEventBus } from '../../events/eventBus'
import { createPriceTable } from '../../prices/prices'
import { createSystemClock } from '../../util/clock'
import { ACCOUNT, BLANC, headers, SECOND_KEY, testApp } from '../testing/fixtures'

// A processor that is never started: these routes answer from its configuration and outbox
// alone, without a chain (the chain is there for its token list).
const base: DepositChain = {
  chainId: 8453,
  tokens: tokensByChain[8453]!,
  publicClient: undefined as never,
  relayer: undefined as never,
  send: async () => {
    throw new Error('no chain in this test')
  },
}
const processor = createDepositProcessor({
  chains: [base],
  prices: createPriceTable(),
  clock: createSystemClock(),
  events: createEventBus(),
  pollIntervalMs: null,
})

let t: Awaited<ReturnType<typeof testApp>>
beforeAll(async () => {
  t = await testApp({}, { depositProcessor: processor })
})
afterAll(() => t.app.close())

test('POST /deposit-processor/register answers the registration, in its schema', async () => {
  const r = await t.request({
    method: 'POST',
    url: '/deposit-processor/register',
    headers: headers(BLANC),
    payload: { account: ACCOUNT.toLowerCase(), targetChainId: '8453' },
  })
  expect(r.status).toBe(200)
  expect(DepositProcessorRegisterResponse.parse(r.json)).toEqual({
    message: 'Account registered.',
    account: ACCOUNT,
    targetChainId: 8453,
    targetToken: null,
  })
})

test('webhooks: a test event (202), the events list with paging, a resend, and 404 for another key', async () => {
  const sent = []
  for (let i = 0; i < 3; i++) {
    const r = await t.request({
      method: 'POST',
      url: '/deposit-processor/webhooks/test',
      headers: headers(BLANC),
    })
    expect(r.status).toBe(202)
    sent.push(WebhookEvent.parse(r.json))
  }
  expect(sent[0]).toMatchObject({ type: 'test', status: 'pending', attempts: [], payload: { test: true } })

  const page1 = await t.request({
    method: 'GET',
    url: '/deposit-processor/webhooks/events?limit=2',
    headers: headers(BLANC),
  })
  const list1 = WebhookEventList.parse(page1.json)
  expect(list1.events.map((e) => e.eventId)).toEqual([sent[2]!.eventId, sent[1]!.eventId])
  const page2 = await t.request({
    method: 'GET',
    url: `/deposit-processor/webhooks/events?limit=2&cursor=${list1.nextCursor}`,
    headers: headers(BLANC),
  })
  expect(WebhookEventList.parse(page2.json)).toMatchObject({
    events: [{ eventId: sent[0]!.eventId }],
    nextCursor: null,
  })

  const resend = await t.request({
    method: 'POST',
    url: `/deposit-processor/webhooks/events/${sent[0]!.eventId}/resend`,
    headers: headers(BLANC),
    payload: {},
  })
  expect(resend.status).toBe(200)
  // No webhookUrl configured: the event is kept, as skipped.
  expect(WebhookEvent.parse(resend.json)).toMatchObject({ eventId: sent[0]!.eventId, status: 'skipped' })

  const other = await t.request({
    method: 'POST',
    url: `/deposit-processor/webhooks/events/${sent[0]!.eventId}/resend`,
    headers: headers(BLANC, SECOND_KEY),
    payload: {},
  })
  expect(other.status).toBe(404)
  const otherList = await t.request({
    method: 'GET',
    url: '/deposit-processor/webhooks/events',
    headers: headers(BLANC, SECOND_KEY),
  })
  expect(otherList.json).toEqual({ events: [], nextCursor: null })
})

test('the OpenAPI document shows the response schema of every deposit-processor route', async () => {
  const doc = (await t.request({ method: 'GET', url: '/openapi.json' })).json
  const responses: [string, string, string][] = [
    ['/deposit-processor/register', 'post', '200'],
    ['/deposit-processor/webhooks/events', 'get', '200'],
    ['/deposit-processor/webhooks/events/{id}/resend', 'post', '200'],
    ['/deposit-processor/webhooks/test', 'post', '202'],
  ]
  for (const [path, method, status] of responses) {
    const schema = doc.paths[path][method].responses[status]?.content?.['application/json']?.schema
    expect(schema?.type, `${method} ${path}`).toBe('object')
  }
  const list =
    doc.paths['/deposit-processor/webhooks/events'].get.responses['200'].content['application/json']
  expect(list.schema.required).toEqual(['events', 'nextCursor'])
})
