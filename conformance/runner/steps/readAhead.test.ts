// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the placeholders are what the runner reads
import { mkdtemp, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type AnvilInstance, startAnvil } from '../../../simulator/devnet/anvil'
import { runConformance } from '../runConformance'
import { scenario, startBareTarget } from '../testing/bareTarget'

// A real Anvil behind a proxy that records what each HTTP request to it carried.
let anvil: AnvilInstance
let proxy: Server
let local: Awaited<ReturnType<typeof startBareTarget>>
let chainsFile: string
const requests: string[][] = []
beforeAll(async () => {
  ;[anvil, local] = await Promise.all([startAnvil({ chainId: 8453 }), startBareTarget()])
  proxy = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', async () => {
      const call = JSON.parse(body)
      requests.push((Array.isArray(call) ? call : [call]).map((c: { method: string }) => c.method))
      const answer = await fetch(anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      res.end(await answer.text())
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  chainsFile = join(await mkdtemp(join(tmpdir(), 'chains-')), 'chains.json')
  await writeFile(
    chainsFile,
    JSON.stringify({
      chains: [{ chainId: 8453, rpcUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` }],
      accounts: ['0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'],
    }),
  )
}, 30_000)
afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()))
  await Promise.all([anvil?.stop(), local?.stop()])
})

test('read steps in a row are read in one batch, each checked as its step comes; one that names an earlier capture is read when it comes', async () => {
  const reads = scenario(`
id: reads.ahead
title: reads in a row
spec: test
requires: { capabilities: [chains] }
steps:
  - chain: { action: transfer, chainId: 8453, from: 0, to: '0x5555555555555555555555555555555555555555', amount: '5' }
  - chain: { action: readBalance, chainId: 8453, account: '0x5555555555555555555555555555555555555555', expect: { equals: '5' }, captureAs: five }
  - chain: { action: readBalance, chainId: 8453, account: '0x6666666666666666666666666666666666666666', expect: { equals: '0' } }
  - chain: { action: readBalance, chainId: 8453, account: '0x5555555555555555555555555555555555555555', expect: { equals: '5' } }
  - chain: { action: readBalance, chainId: 8453, account: '0x5555555555555555555555555555555555555555', expect: { equals: '\${five}' } }
  - chain: { action: readBalance, chainId: 8453, account: '0x6666666666666666666666666666666666666666', expect: { equals: '1' } }
`)
  const run = await runConformance({
    target: local.target,
    apiKey: local.apiKey,
    chainsFile,
    scenarios: [reads],
  })
  expect(run.scenarios[0]!.checks.map((c) => [c.step, c.status])).toEqual([
    [2, 'passed'],
    [3, 'passed'],
    [4, 'passed'],
    [5, 'passed'],
    [6, 'failed'],
  ])
  const balanceReads = requests.filter((methods) => methods.includes('eth_getBalance'))
  // Steps 2-4 in one request; step 5 names step 2's capture: read alone, with step 6 ahead of it.
  expect(balanceReads.map((methods) => methods.length)).toEqual([3, 2])
})
