import { RhinestoneSDK } from '@rhinestone/sdk'
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base, optimism } from 'viem/chains'
import type { Recorder } from '../../conformance/record/startRecorder'
import { signTypedDataAs } from '../../conformance/runner/chainActions'
import { signIntentOp } from '../../conformance/runner/signIntentOp'
import type { TargetCapabilities } from '../../conformance/runner/types'
import type { WebhookReceiver } from '../../conformance/runner/webhookReceiver'
import { addresses } from '../../contracts/addresses'
import { TheCompact } from '../../contracts/generated/artifacts'
import type { Simulator } from '../../simulator/startSimulator'

/**
 * The sessions people record, as their clients run them: each talks to the recording proxy (and
 * its RPC proxies) only, as an integrator's code would talk to the service.
 */

const BLANC = '2026-04.blanc'
const ALPS = '2026-01.alps'

const headers = (sim: Simulator, version: string) => ({
  'x-api-key': sim.apiKey,
  'x-api-version': version,
  'content-type': 'application/json',
})

const tokenOf = (sim: Simulator, chainId: number, symbol: string) =>
  sim
    .manifest()
    .chains.find((c) => c.chainId === chainId)!
    .tokens.find((t) => t.symbol === symbol)!.address as Address

const keyOf = (sim: Simulator, account: number) => sim.manifest().accounts[account]!.privateKey as Hex

// biome-ignore lint/suspicious/noExplicitAny: the JSON answers a test client reads field by field
async function call(url: string, init: RequestInit & { expect?: number } = {}): Promise<any> {
  const response = await fetch(url, init)
  const text = await response.text()
  if (init.expect !== undefined && response.status !== init.expect)
    throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : undefined
}

/** Polls a status until it is final, as a client does (every 250 ms). */
async function pollStatus(url: string, init: RequestInit, final: string[]): Promise<string> {
  for (let i = 0; i < 240; i++) {
    const { status } = await call(url, init)
    if (final.includes(status)) return status
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${url} did not reach ${final.join(' or ')}`)
}

/**
 * blanc, no access list: a 5 USDC quote on Base, the client picks the first route funded from
 * Optimism (cross-chain), signs its typed data as given, submits and polls to COMPLETED.
 */
export async function blancCrossChain(sim: Simulator, recorder: Recorder, account: number): Promise<void> {
  const key = keyOf(sim, account)
  const h = headers(sim, BLANC)
  const quote = await call(`${recorder.url}/intents/route`, {
    method: 'POST',
    headers: h,
    expect: 200,
    body: JSON.stringify({
      destinationChainId: 8453,
      tokenRequests: [{ tokenAddress: tokenOf(sim, 8453, 'USDC'), amount: '5000000' }],
      account: { address: privateKeyToAccount(key).address, accountType: 'EOA' },
    }),
  })
  const routes = quote.routes as {
    intentId: string
    cost: { input: { chainId: number }[] }
    signData: { origin: unknown; destination: unknown }
  }[]
  const route = routes.find((r) => r.cost.input.every((input) => input.chainId === 10))
  if (!route || routes.length < 2) throw new Error(`no cross-chain route among ${routes.length}`)
  const caps = { accounts: [key] } as unknown as TargetCapabilities
  const body = JSON.stringify({
    signatures: {
      origin: await signTypedDataAs(caps, 0, route.signData.origin),
      destination: await signTypedDataAs(caps, 0, route.signData.destination),
    },
  })
  await call(`${recorder.url}/intents/${route.intentId}/submit`, {
    method: 'POST',
    headers: h,
    body,
    expect: 201,
  })
  const status = await pollStatus(`${recorder.url}/intents/${route.intentId}`, { headers: h }, [
    'COMPLETED',
    'FAILED',
  ])
  if (status !== 'COMPLETED') throw new Error(`the blanc intent ended ${status}`)
}

/** alps: a 2 USDC quote on Optimism, the intentOp signed as the SDK 1.x signs it, submitted, polled to COMPLETED. */
export async function alpsSession(sim: Simulator, recorder: Recorder, account: number): Promise<void> {
  const key = keyOf(sim, account)
  const h = headers(sim, ALPS)
  const quote = await call(`${recorder.url}/intents/route`, {
    method: 'POST',
    headers: h,
    expect: 200,
    body: JSON.stringify({
      destinationChainId: 10,
      tokenRequests: [{ tokenAddress: tokenOf(sim, 10, 'USDC'), amount: '2000000' }],
      account: { address: privateKeyToAccount(key).address, accountType: 'EOA' },
    }),
  })
  const signedIntentOp = await signIntentOp(quote.intentOp, privateKeyToAccount(key))
  const submitted = await call(`${recorder.url}/intent-operations`, {
    method: 'POST',
    headers: h,
    expect: 201,
    body: JSON.stringify({ signedIntentOp }),
  })
  const status = await pollStatus(`${recorder.url}/intent-operation/${submitted.result.id}`, { headers: h }, [
    'COMPLETED',
    'FAILED',
  ])
  if (status !== 'COMPLETED') throw new Error(`the alps intent ended ${status}`)
}

/** The public SDK (@rhinestone/sdk), an EOA transfer with a destination call, through the proxy and its RPC proxies. */
export async function sdkSession(sim: Simulator, recorder: Recorder, account: number): Promise<void> {
  const sdk = new RhinestoneSDK({
    apiKey: sim.apiKey,
    endpointUrl: recorder.url,
    provider: { type: 'custom', urls: recorder.rpcUrls },
  })
  const user = sim.devnet.keys.accounts[account]!.account
  const smart = await sdk.createAccount({ account: { type: 'eoa' }, eoa: user })
  const usdcBase = tokenOf(sim, 8453, 'USDC')
  const result = await smart.sendTransaction({
    sourceChains: [optimism],
    targetChain: base,
    calls: [
      {
        to: usdcBase,
        value: 0n,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: ['0x000000000000000000000000000000000000dEaD', 1n],
        }),
      },
    ],
    tokenRequests: [{ address: usdcBase, amount: parseUnits('5', 6) }],
  })
  await smart.waitForExecution(result)
}

/**
 * A deposit with its webhook: the processor set up with the client's receiver, a fresh account
 * registered, account 0 sends it USDC on Optimism through the RPC proxy, the signed
 * `deposit-received` webhook arrives (relayed by the recorder).
 */
export async function depositSession(
  sim: Simulator,
  recorder: Recorder,
  receiver: WebhookReceiver,
  fresh: Address,
): Promise<void> {
  const inbox = receiver.createInbox()
  const h = headers(sim, BLANC)
  const post = (path: string, body: unknown) =>
    call(`${recorder.url}${path}`, { method: 'POST', headers: h, body: JSON.stringify(body), expect: 200 })
  await post('/deposit-processor/setup', {
    params: {
      webhookUrl: inbox.url,
      webhookSecret: inbox.secret,
      depositWhitelist: {},
      maxPriceDeviationBps: null,
      sponsorship: { 'eip155:10': { gas: 'all', bridging: 'all' } },
    },
  })
  await post('/deposit-processor/register', { account: fresh, targetChainId: 8453 })
  const wallet = createWalletClient({
    account: privateKeyToAccount(keyOf(sim, 0)),
    chain: optimism,
    transport: http(recorder.rpcUrls[10]),
  })
  await wallet.writeContract({
    address: tokenOf(sim, 10, 'USDC'),
    abi: erc20Abi,
    functionName: 'transfer',
    args: [fresh, 1_000_000n],
  })
  const hook = await receiver.waitFor(
    inbox.id,
    (h) => (h.json as { type?: string })?.type === 'deposit-received',
    30_000,
  )
  if (hook?.signature !== 'valid') throw new Error(`the deposit webhook's signature is ${hook?.signature}`)
  // Then lists the account's deposits until the one it made settles, as a client's dashboard does.
  const listed = `${recorder.url}/deposit-processor/deposits?account=${fresh}`
  for (let i = 0; ; i++) {
    const { deposits } = await call(listed, { headers: h, expect: 200 })
    const status = (deposits as { status: string }[])[0]?.status
    if (status && status !== 'processing') break
    if (i >= 240) throw new Error(`the deposit of ${fresh} is still ${status ?? 'not listed'}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/**
 * Withdrawals: one single and one batch withdrawal of the account's Compact deposits on Base,
 * each executed by the account on chain (`allocatedTransfer` / `allocatedBatchTransfer`) through
 * the RPC proxy with the answer's data.
 */
export async function withdrawalSession(sim: Simulator, recorder: Recorder, account: number): Promise<void> {
  const key = keyOf(sim, account)
  const sponsor = privateKeyToAccount(key)
  const h = headers(sim, BLANC)
  const usdc = tokenOf(sim, 8453, 'USDC')
  const wallet = createWalletClient({
    account: sponsor,
    chain: base,
    transport: http(recorder.rpcUrls[8453]),
  })
  const single = await call(`${recorder.url}/withdrawals`, {
    method: 'POST',
    headers: h,
    expect: 200,
    body: JSON.stringify({
      account: sponsor.address,
      chainId: 8453,
      tokenAddress: usdc,
      amount: '1000000',
      recipient: '0x000000000000000000000000000000000000bEEF',
    }),
  })
  const d = single.transferDetails
  await wallet.writeContract({
    address: addresses.compact,
    abi: TheCompact.abi,
    functionName: 'allocatedTransfer',
    args: [
      {
        allocatorData: single.allocatorData,
        nonce: BigInt(d.nonce),
        expires: BigInt(d.expires),
        id: BigInt(d.id),
        recipients: d.recipients.map((r: { claimant: string; amount: string }) => ({
          claimant: BigInt(r.claimant),
          amount: BigInt(r.amount),
        })),
      },
    ],
  })
  const batch = await call(`${recorder.url}/batch-withdrawals`, {
    method: 'POST',
    headers: h,
    expect: 200,
    body: JSON.stringify({
      account: sponsor.address,
      chainId: 8453,
      transfers: [
        { recipient: '0x000000000000000000000000000000000000a001', tokenAddress: usdc, amount: '1000000' },
        { recipient: '0x000000000000000000000000000000000000b002', tokenAddress: usdc, amount: '2000000' },
      ],
    }),
  })
  const b = batch.batchTransferDetails
  await wallet.writeContract({
    address: addresses.compact,
    abi: TheCompact.abi,
    functionName: 'allocatedBatchTransfer',
    args: [
      {
        allocatorData: batch.allocatorData,
        nonce: BigInt(b.nonce),
        expires: BigInt(b.expires),
        transfers: b.transfers.map((t: { id: string; portions: { claimant: string; amount: string }[] }) => ({
          id: BigInt(t.id),
          portions: t.portions.map((p) => ({ claimant: BigInt(p.claimant), amount: BigInt(p.amount) })),
        })),
      },
    ],
  })
}

/**
 * A fault switched on and off by the session itself: enable `intents.accept-duplicate`, submit a
 * blanc intent twice (the fault accepts the second), disable it, submit again (refused).
 */
export async function faultSession(sim: Simulator, recorder: Recorder, account: number): Promise<void> {
  const h = headers(sim, BLANC)
  const faults = (body: unknown) =>
    call(`${recorder.url}/_devnet/faults`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify(body),
      expect: 200,
    })
  await faults({ enable: ['intents.accept-duplicate'] })
  const key = keyOf(sim, account)
  const quote = await call(`${recorder.url}/intents/route`, {
    method: 'POST',
    headers: h,
    expect: 200,
    body: JSON.stringify({
      destinationChainId: 8453,
      tokenRequests: [{ tokenAddress: tokenOf(sim, 8453, 'USDC'), amount: '1000000' }],
      account: { address: privateKeyToAccount(key).address, accountType: 'EOA' },
    }),
  })
  const route = quote.routes[0]
  const caps = { accounts: [key] } as unknown as TargetCapabilities
  const body = JSON.stringify({
    signatures: {
      origin: await signTypedDataAs(caps, 0, route.signData.origin),
      destination: await signTypedDataAs(caps, 0, route.signData.destination),
    },
  })
  const submit = (expect: number) =>
    call(`${recorder.url}/intents/${route.intentId}/submit`, { method: 'POST', headers: h, body, expect })
  await submit(201)
  await submit(201)
  await faults({ disable: ['intents.accept-duplicate'] })
  await call(`${recorder.url}/_devnet/faults`, { headers: h, expect: 200 })
}
