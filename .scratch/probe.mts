import { startLocalTarget } from '/work/wt/i28/conformance/runner/startLocalTarget'
const local = await startLocalTarget()
const dead = '0x000000000000000000000000000000000000dEaD'
const usdc = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const base = { destinationChainId: 8453, tokenRequests: [{ tokenAddress: usdc, amount: '1000000' }], account: { address: dead, accountType: 'EOA' } }
const ops = (n: number) => Array.from({ length: n }, () => ({ to: dead, value: '0', data: '0x' }))
const reqs: [string, string, string | undefined, unknown, string?][] = [
  ['POST', '/intents/route', '2026-04.blanc', { ...base, preClaimExecutions: { '1': ops(11) } }],
  ['POST', '/intents/route', '2026-01.alps', { ...base, preClaimExecutions: { '1': ops(11) } }],
  ['POST', '/intents/route', '2026-04.blanc', { ...base, preClaimExecutions: Object.fromEntries([1,10,137,8453,42161,56].map(c=>[String(c), ops(1)])) }],
  ['POST', '/intents/route', '2026-04.blanc', { ...base, tokenRequests: [{ tokenAddress: usdc, amount: '1'+'0'.repeat(99) }] }],
  ['POST', '/intents/route', '2026-04.blanc', { ...base, tokenRequests: [{ tokenAddress: usdc, amount: '-1000000' }] }],
  ['POST', '/intents/route', '2026-01.alps', undefined, '{"destinationChainId": 1e400, "tokenRequests": [{"tokenAddress": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "amount": "1"}], "account": {"address": "0x000000000000000000000000000000000000dEaD"}}'],
  ['POST', '/withdrawals', '2026-04.blanc', undefined, '{"account": "0x000000000000000000000000000000000000dEaD", "chainId": 8453, "tokenAddress": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "amount": 123456789012345678901234567890, "recipient": "0x000000000000000000000000000000000000dEaD"}'],
  ['POST', '/withdrawals', '2026-01.alps', { account: dead, chainId: 8453, tokenAddress: usdc, amount: -5, recipient: dead }],
  ['POST', '/batch-withdrawals', '2026-04.blanc', { account: dead, chainId: 8453, transfers: [{ recipient: dead, tokenAddress: usdc, amount: -1 }] }],
  ['POST', '/intents/route', '2026-04.blanc', { destinationChainId: 'base', tokenRequests: 'USDC', account: { address: dead } }],
  ['POST', '/intents/route', '2026-01.alps', { ...base, account: { address: 'not-an-address' } }],
  ['POST', '/withdrawals', '2026-04.blanc', { account: dead, chainId: 8453, tokenAddress: usdc, amount: { value: 1 }, recipient: dead }],
  ['POST', '/batch-withdrawals', '2026-04.blanc', [1, 2, 3]],
  ['POST', '/deposit-processor/setup', '2026-04.blanc', { params: 'all' }],
  ['POST', '/intents/route', undefined, {}],
  ['POST', '/intents/route', '', {}],
  ['POST', '/intents/1/submit', undefined, { signatures: { origin: ['0x00'], destination: '0x00' } }],
  ['POST', '/quotes', undefined, {}],
  ['POST', '/quotes', '2026-01.alps', {}],
]
for (const [method, path, version, body, raw] of reqs) {
  const headers: Record<string, string> = { 'x-api-key': local.apiKey, 'content-type': 'application/json' }
  if (version !== undefined) headers['x-api-version'] = version
  const r = await fetch(local.target + path, { method, headers, body: raw ?? JSON.stringify(body) })
  console.log(method, path, version, r.status, (await r.text()).slice(0, 400))
}
await local.stop()
