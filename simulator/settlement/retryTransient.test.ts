import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ContractFunctionRevertedError, createPublicClient, HttpRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { keepAliveTransport } from '../../lib/keepAliveTransport'
import { isTransient } from './isTransient'
import { retryTransient } from './retryTransient'

const unreachable = () => new HttpRequestError({ url: 'http://127.0.0.1:1', details: 'fetch failed' })
const reverted = () => new ContractFunctionRevertedError({ abi: [], functionName: 'fill' })

describe('retryTransient', () => {
  it('retries what failed for want of a node, logging each retry', async () => {
    const lines: string[] = []
    let calls = 0
    const answer = await retryTransient(
      { log: (line) => lines.push(line) },
      { what: 'send fill' },
      async () => {
        calls++
        if (calls === 1) throw unreachable()
        return 'ok'
      },
    )
    expect(answer).toBe('ok')
    expect(calls).toBe(2)
    expect(lines).toEqual([expect.stringMatching(/^send fill: .*; retry 1$/)])
  })

  it('throws a revert at once, without retrying', async () => {
    let calls = 0
    const error = reverted()
    await expect(
      retryTransient({ log: () => {} }, { what: 'simulate fill' }, async () => {
        calls++
        throw error
      }),
    ).rejects.toBe(error)
    expect(calls).toBe(1)
  })

  it('gives up after retryCount retries', async () => {
    let calls = 0
    await expect(
      retryTransient({ log: () => {} }, { what: 'find fill', retryCount: 1 }, async () => {
        calls++
        throw unreachable()
      }),
    ).rejects.toBeInstanceOf(HttpRequestError)
    expect(calls).toBe(2)
  })
})

describe('isTransient', () => {
  it("holds for the devnet transport's failures: a refused connection, no answer in time", async () => {
    const refused = createPublicClient({ transport: keepAliveTransport('http://127.0.0.1:1') })
    expect(isTransient(await refused.getBlockNumber().catch((e: unknown) => e))).toBe(true)
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
      const late = createPublicClient({ transport: keepAliveTransport(url, { timeoutMs: 50 }) })
      const error = await late.getBlockNumber().catch((e: unknown) => e)
      expect(String(error)).toMatch(/did not answer within 50 ms/)
      expect(isTransient(error)).toBe(true)
    } finally {
      silent.closeAllConnections()
      silent.close()
    }
    expect(isTransient(reverted())).toBe(false)
  })
})
