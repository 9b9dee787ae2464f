import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createPublicClient } from 'viem'
import { mainnet } from 'viem/chains'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { keepAliveTransport } from './keepAliveTransport'

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
      if (call.method === 'eth_chainId')
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

test('one HTTP request per call, counted; JSON-RPC errors, HTTP errors and non-JSON answers reject', async () => {
  let trips = 0
  const client = createPublicClient({
    chain: mainnet,
    transport: keepAliveTransport(url, { onRoundTrip: () => trips++ }),
  })
  expect(await client.getChainId()).toBe(1)
  expect(seen.at(-1)).toMatchObject({ jsonrpc: '2.0', method: 'eth_chainId' })
  await expect(client.getBlockNumber({ cacheTime: 0 })).rejects.toThrow(/nope/)
  await expect(client.getGasPrice()).rejects.toThrow(/HTTP 502/)
  await expect(client.getTransactionCount({ address: `0x${'11'.repeat(20)}` })).rejects.toThrow(/not JSON/)
  expect(trips).toBe(4)
  expect(seen).toHaveLength(4)
})

test('a refused connection rejects, and only http:// URLs are accepted', async () => {
  const client = createPublicClient({ chain: mainnet, transport: keepAliveTransport('http://127.0.0.1:1') })
  await expect(client.getChainId()).rejects.toThrow(/127\.0\.0\.1:1/)
  expect(() => keepAliveTransport('https://example.org')).toThrow(/http:\/\//)
})
