import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createPublicClient } from 'viem'
import { mainnet } from 'viem/chains'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { keepAliveTransport } from './keepAliveTransport'
import { loopbackPost } from './loopbackHttp'

/** The HTTP hops: node:http (the default) and the lean loopback client (the devnet's own Anvils). */
const HOPS = [
  ['node:http', undefined],
  ['the lean loopback client', loopbackPost],
] as const

// A real JSON-RPC endpoint on port 0 whose answer depends on the method.
let server: Server
let url: string
const seen: unknown[] = []
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      const call = JSON.parse(body)
      seen.push(call)
      // A JSON-RPC batch: answered in reverse order; eth_call echoes its data, 0xdead fails alone;
      // a batch holding eth_gasPrice is refused whole, one holding eth_blockNumber loses that answer.
      if (Array.isArray(call)) {
        if (call.some((c) => c.method === 'eth_gasPrice'))
          return res.end(
            JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no batches' } }),
          )
        const answers = call
          .filter((c) => c.method !== 'eth_blockNumber')
          .map((c) =>
            c.params[0].data === '0xdead'
              ? { jsonrpc: '2.0', id: c.id, error: { code: 3, message: 'execution reverted' } }
              : { jsonrpc: '2.0', id: c.id, result: c.params[0].data },
          )
        return res.end(JSON.stringify(answers.reverse()))
      }
      if (call.method === 'eth_call')
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: call.params[0].data }))
      else if (call.method === 'eth_chainId')
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: '0x1' }))
      else if (call.method === 'eth_blockNumber')
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'nope' } }))
      else if (call.method === 'eth_gasPrice') res.writeHead(502).end('bad gateway')
      else res.end('not json')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

test.each(HOPS)(
  'one HTTP request per call, counted; JSON-RPC errors, HTTP errors and non-JSON answers reject (over %s)',
  async (_, hop) => {
    seen.length = 0
    let trips = 0
    const client = createPublicClient({
      chain: mainnet,
      transport: keepAliveTransport(url, { onRoundTrip: () => trips++, hop }),
    })
    expect(await client.getChainId()).toBe(1)
    expect(seen.at(-1)).toMatchObject({ jsonrpc: '2.0', method: 'eth_chainId' })
    await expect(client.getBlockNumber({ cacheTime: 0 })).rejects.toThrow(/nope/)
    await expect(client.getGasPrice()).rejects.toThrow(/HTTP 502/)
    await expect(client.getTransactionCount({ address: `0x${'11'.repeat(20)}` })).rejects.toThrow(/not JSON/)
    expect(trips).toBe(4)
    expect(seen).toHaveLength(4)
  },
)

test('a refused connection rejects, and only http:// and https:// URLs are accepted', async () => {
  const client = createPublicClient({ chain: mainnet, transport: keepAliveTransport('http://127.0.0.1:1') })
  await expect(client.getChainId()).rejects.toThrow(/127\.0\.0\.1:1/)
  const tls = createPublicClient({ chain: mainnet, transport: keepAliveTransport('https://127.0.0.1:1') })
  await expect(tls.getChainId()).rejects.toThrow(/https:\/\/127\.0\.0\.1:1/)
  expect(() => keepAliveTransport('ws://example.org')).toThrow(/http:\/\/ or https:\/\//)
})

test('batch: the calls of one synchronous run share one HTTP request, each with its own answer or error', async () => {
  let trips = 0
  const client = createPublicClient({
    chain: mainnet,
    transport: keepAliveTransport(url, { onRoundTrip: () => trips++, batch: { maxSize: 4 } }),
  })
  const to = `0x${'22'.repeat(20)}` as const
  const call = (data: `0x${string}`) => client.call({ to, data }).then((r) => r.data)
  seen.length = 0
  // Three calls in one run: one POST with a JSON-RPC array; answers matched by id, not by order.
  const three = await Promise.allSettled([call('0x01'), call('0xdead'), call('0x03')])
  expect(trips).toBe(1)
  expect(seen).toHaveLength(1)
  expect(Array.isArray(seen[0])).toBe(true)
  expect(three[0]).toEqual({ status: 'fulfilled', value: '0x01' })
  expect(three[1]).toMatchObject({
    status: 'rejected',
    reason: { message: expect.stringMatching(/reverted/) },
  })
  expect(three[2]).toEqual({ status: 'fulfilled', value: '0x03' })
  // A lone call is a plain JSON-RPC object.
  expect(await call('0x04')).toBe('0x04')
  expect(Array.isArray(seen[1])).toBe(false)
  expect(trips).toBe(2)
  // Over maxSize (4): the first four leave at once, the rest in a second request.
  const six = await Promise.all(
    ['0x10', '0x11', '0x12', '0x13', '0x14', '0x15'].map((d) => call(d as `0x${string}`)),
  )
  expect(six).toEqual(['0x10', '0x11', '0x12', '0x13', '0x14', '0x15'])
  expect(trips).toBe(4)
  expect((seen.slice(2) as unknown[][]).map((b) => b.length)).toEqual([4, 2])
})

test('batch: a refused batch is sent again one request each, and so is every later call; an unanswered call rejects alone', async () => {
  let trips = 0
  const client = createPublicClient({
    chain: mainnet,
    transport: keepAliveTransport(url, { batch: true, onRoundTrip: () => trips++ }),
  })
  const partial = await Promise.allSettled([
    client.getBlockNumber({ cacheTime: 0 }),
    client.call({ to: `0x${'22'.repeat(20)}`, data: '0x02' }),
  ])
  expect(String((partial[0] as PromiseRejectedResult).reason)).toMatch(/unanswered/)
  expect(partial[1]).toEqual({ status: 'fulfilled', value: { data: '0x02' } })
  seen.length = 0
  trips = 0
  // The server refuses a batch holding eth_gasPrice (one error object): each call goes again
  // alone, with its own answer (eth_gasPrice's: HTTP 502).
  const refused = await Promise.allSettled([
    client.getGasPrice(),
    client.call({ to: `0x${'22'.repeat(20)}`, data: '0x01' }),
  ])
  expect(String((refused[0] as PromiseRejectedResult).reason)).toMatch(/HTTP 502/)
  expect(refused[1]).toEqual({ status: 'fulfilled', value: { data: '0x01' } })
  expect(seen.map((s) => (Array.isArray(s) ? 'batch' : (s as { method: string }).method))).toEqual([
    'batch',
    'eth_gasPrice',
    'eth_call',
  ])
  // From then on, no batch.
  seen.length = 0
  const two = await Promise.all(
    ['0x05', '0x06'].map((data) => client.call({ to: `0x${'22'.repeat(20)}`, data: data as `0x${string}` })),
  )
  expect(two).toEqual([{ data: '0x05' }, { data: '0x06' }])
  expect(seen.every((s) => !Array.isArray(s))).toBe(true)
  expect(trips).toBe(5)
})

test.each(HOPS)(
  'batch: a batch refused by its HTTP status (4xx) is sent again one request each (over %s)',
  async (_, hop) => {
    const refusing = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => {
        body += c
      })
      req.on('end', () => {
        const call = JSON.parse(body)
        if (Array.isArray(call)) return res.writeHead(400).end('batches are not served')
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: call.params[0].data }))
      })
    })
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve))
    try {
      const client = createPublicClient({
        chain: mainnet,
        transport: keepAliveTransport(`http://127.0.0.1:${(refusing.address() as AddressInfo).port}`, {
          batch: true,
          hop,
        }),
      })
      const to = `0x${'22'.repeat(20)}` as const
      expect(
        await Promise.all([client.call({ to, data: '0x07' }), client.call({ to, data: '0x08' })]),
      ).toEqual([{ data: '0x07' }, { data: '0x08' }])
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()))
    }
  },
)

test("batch wait: 'turn' (the default) gathers the calls of one turn of the event loop, 'microtask' those of one synchronous run", async () => {
  const to = `0x${'22'.repeat(20)}` as const
  // Calls started a few awaits apart, as viem's actions reach the transport after a varying number.
  const apart = async (client: ReturnType<typeof createPublicClient>) => {
    const first = client.call({ to, data: '0x01' })
    for (let i = 0; i < 5; i++) await Promise.resolve()
    const second = client.call({ to, data: '0x02' })
    return (await Promise.all([first, second])).map((r) => r.data)
  }
  for (const [wait, expected] of [
    [undefined, 1],
    ['turn', 1],
    ['microtask', 2],
  ] as const) {
    let trips = 0
    const client = createPublicClient({
      chain: mainnet,
      transport: keepAliveTransport(url, { onRoundTrip: () => trips++, batch: { wait } }),
    })
    expect(await apart(client)).toEqual(['0x01', '0x02'])
    expect({ wait, trips }).toEqual({ wait, trips: expected })
  }
})

test("viemErrors: failures as viem's http() throws them, so its retries are http()'s (a revert is not retried, HTTP 502 is)", async () => {
  let trips = 0
  const client = createPublicClient({
    chain: mainnet,
    transport: keepAliveTransport(url, {
      onRoundTrip: () => trips++,
      retryCount: 2,
      viemErrors: true,
      batch: true,
    }),
  })
  // eth_blockNumber answers -32601 alone: viem's MethodNotFoundRpcError, not retried.
  const missing = await client.getBlockNumber({ cacheTime: 0 }).catch((e: Error) => e)
  expect((missing as { name: string }).name).toBe('MethodNotFoundRpcError')
  expect(trips).toBe(1)
  // A revert in a batch (code 3): RpcRequestError with the node's code and message, not retried.
  const to = `0x${'22'.repeat(20)}` as const
  trips = 0
  const [reverted] = await Promise.allSettled([
    client.call({ to, data: '0xdead' }),
    client.call({ to, data: '0x01' }),
  ])
  const cause = (reverted as PromiseRejectedResult).reason.walk(
    (e: { name: string }) => e.name === 'RpcRequestError',
  )
  expect(cause).toMatchObject({ code: 3, details: 'execution reverted' })
  expect(trips).toBe(1)
  // HTTP 502: viem's HttpRequestError with its status, retried (1 + 2).
  trips = 0
  const bad = await client.getGasPrice().catch((e: Error) => e)
  expect(bad).toMatchObject({ name: 'HttpRequestError', status: 502 })
  expect(trips).toBe(3)
})

test('batch: eth_sendRawTransactionSync goes alone, or in the batch of its turn with waitingInBatch', async () => {
  const call = { to: '0x0000000000000000000000000000000000000001', data: '0xbeef' } as const
  const methods = (sent: unknown) =>
    (Array.isArray(sent) ? sent : [sent]).map((c: { method: string }) => c.method).sort()
  for (const waitingInBatch of [false, true]) {
    const transport = keepAliveTransport(url, { batch: { waitingInBatch } })({ chain: mainnet })
    seen.length = 0
    await Promise.allSettled([
      transport.request({ method: 'eth_sendRawTransactionSync', params: ['0x02'] }),
      transport.request({ method: 'eth_call', params: [call, 'latest'] }),
    ])
    expect(seen.map(methods).sort()).toEqual(
      waitingInBatch
        ? [['eth_call', 'eth_sendRawTransactionSync']]
        : [['eth_call'], ['eth_sendRawTransactionSync']],
    )
  }
})
