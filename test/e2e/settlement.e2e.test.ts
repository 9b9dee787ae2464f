import { RhinestoneSDK } from '@rhinestone/sdk'
import { type Address, type Hex, parseUnits, type TypedDataDefinition } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base, optimism } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { isolateDevnet } from '../../integrations/vitest'
import { compactTypedData, permit2TypedData } from '../../simulator/eip712/typedData'
import { approvePermit2, balanceOf, tokenAddress } from '../../simulator/settlement/testing/buildSignedIntent'
import { sharedDevnet } from '../support/sharedDevnet'

/**
 * End to end through HTTP: the quoting service and the relayer wired into the running service,
 * clients of both versions, and the public SDK 1.x unmodified.
 */
const usdc = (n: number) => parseUnits(String(n), 6)
const ALPS = '2026-01.alps'
const BLANC = '2026-04.blanc'
// The shared devnet's service (chains 10, 8453, 42161): the quoting service and the relayer
// wired into it as startSimulator wires them.
const service = sharedDevnet()
const { devnet } = service

isolateDevnet({ scope: 'file' })
isolateDevnet()

async function call(method: string, path: string, body?: unknown, version?: string) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      'x-api-key': service.apiKey,
      ...(version ? { 'x-api-version': version } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of several shapes
  return { status: response.status, body: (await response.json()) as any }
}

async function poll(path: string, version: string, done: (body: { status: string }) => boolean) {
  const deadline = Date.now() + 30_000
  for (;;) {
    const { body } = await call('GET', path, undefined, version)
    if (done(body)) return body
    if (Date.now() > deadline) throw new Error(`${path} stuck: ${JSON.stringify(body)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
const final = (b: { status: string }) => ['COMPLETED', 'FAILED', 'EXPIRED'].includes(b.status)

async function expectMined(chainId: number, hash: Hex) {
  const receipt = await devnet.chain(chainId).publicClient.getTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
}

describe('alps over HTTP', () => {
  it('quotes, submits and settles a one-origin intent; a second submit is 409', async () => {
    const user = devnet.keys.accounts[0]!
    const route = await call(
      'POST',
      '/intents/route',
      {
        destinationChainId: 8453,
        tokenRequests: [{ tokenAddress: tokenAddress(8453, 'USDC'), amount: usdc(25).toString() }],
        account: { address: user.address, accountType: 'EOA' },
        accountAccessList: { chainIds: [10] },
      },
      ALPS,
    )
    expect(route.status).toBe(200)
    const intentOp = route.body.intentOp
    for (const element of intentOp.elements) {
      if (element.mandate.qualifier.settlementContext.fundingMethod === 'PERMIT2')
        for (const [id] of element.idsAndAmounts)
          await approvePermit2(
            devnet,
            user.account,
            Number(element.chainId),
            `0x${BigInt(id).toString(16).slice(-40).padStart(40, '0')}` as Address,
          )
    }
    const originSignatures = await Promise.all(
      intentOp.elements.map((element: Parameters<typeof permit2TypedData>[0]) =>
        user.account.signTypedData(
          (element.mandate.qualifier.settlementContext.fundingMethod === 'COMPACT'
            ? compactTypedData(intentOp)
            : permit2TypedData(element, intentOp.nonce, intentOp.expires)) as unknown as TypedDataDefinition,
        ),
      ),
    )
    const before = await balanceOf(devnet, 8453, tokenAddress(8453, 'USDC'), user.address)
    const signedIntentOp = { ...intentOp, originSignatures, destinationSignature: originSignatures.at(-1) }
    const submitted = await call('POST', '/intent-operations', { signedIntentOp })
    expect(submitted.status).toBe(201)
    expect(submitted.body.result.status).toBe('PENDING')
    const status = await poll(`/intent-operation/${submitted.body.result.id}`, ALPS, final)
    expect(status.status).toBe('COMPLETED')
    await expectMined(8453, status.fillTransactionHash)
    for (const claim of status.claims) await expectMined(claim.chainId, claim.claimTransactionHash)
    expect(await balanceOf(devnet, 8453, tokenAddress(8453, 'USDC'), user.address)).toBe(before + usdc(25))
    expect((await call('POST', '/intent-operations', { signedIntentOp })).status).toBe(409)
  })
})

describe('blanc over HTTP', () => {
  it('signs the signData as given, submits through POST /intents, and the quote is consumed', async () => {
    const user = devnet.keys.accounts[1]!
    const recipient = privateKeyToAccount(`0x${'42'.repeat(32)}`).address
    const quote = await call(
      'POST',
      '/quotes',
      {
        destinationChainId: 8453,
        tokenRequests: [{ tokenAddress: tokenAddress(8453, 'USDC'), amount: usdc(12).toString() }],
        account: { address: user.address, accountType: 'EOA' },
        recipient: { address: recipient, accountType: 'EOA' },
        accountAccessList: { chainIds: [10, 42161] },
      },
      BLANC,
    )
    expect(quote.status).toBe(200)
    const route = quote.body.routes[0]
    const origin = await Promise.all(
      route.signData.origin.map((td: unknown) => user.account.signTypedData(td as TypedDataDefinition)),
    )
    const destination = await user.account.signTypedData(route.signData.destination as TypedDataDefinition)
    const submitted = await call(
      'POST',
      '/intents',
      { intentId: route.intentId, signatures: { origin, destination } },
      BLANC,
    )
    expect(submitted.status).toBe(201)
    expect(submitted.body.intentId).toBe(route.intentId)
    const again = await call(
      'POST',
      `/intents/${route.intentId}/submit`,
      { signatures: { origin, destination } },
      BLANC,
    )
    expect(again.status).toBe(404)
    const status = await poll(`/intents/${route.intentId}`, BLANC, final)
    expect(status.status).toBe('COMPLETED')
    const fill = status.operations
      .flatMap((o: { items: { type: string }[] }) => o.items)
      .find((i: { type: string }) => i.type === 'FILL')
    await expectMined(8453, fill.txHash)
    expect(await balanceOf(devnet, 8453, tokenAddress(8453, 'USDC'), recipient)).toBe(usdc(12))
  })
})

describe('the public SDK 1.x, unmodified, against the devnet', () => {
  it('completes a cross-chain transfer for an EOA funded through Permit2', async () => {
    const user = devnet.keys.accounts[2]!
    await approvePermit2(devnet, user.account, 10, tokenAddress(10, 'USDC'))
    const sdk = new RhinestoneSDK({
      apiKey: service.apiKey,
      endpointUrl: service.baseUrl,
      provider: { type: 'custom', urls: Object.fromEntries(devnet.chains.map((c) => [c.chainId, c.rpcUrl])) },
    })
    const account = await sdk.createAccount({ account: { type: 'eoa' }, eoa: user.account })
    const before = {
      dest: await balanceOf(devnet, 8453, tokenAddress(8453, 'USDC'), user.address),
      origin: await balanceOf(devnet, 10, tokenAddress(10, 'USDC'), user.address),
    }
    const result = await account.sendTransaction({
      sourceChains: [optimism],
      targetChain: base,
      tokenRequests: [{ address: tokenAddress(8453, 'USDC'), amount: usdc(9) }],
    })
    const status = await account.waitForExecution(result)
    expect(status).toBeDefined()
    const done = await poll(`/intent-operation/${(result as { id: bigint | string }).id}`, ALPS, final)
    expect(done.status).toBe('COMPLETED')
    expect(await balanceOf(devnet, 8453, tokenAddress(8453, 'USDC'), user.address)).toBe(
      before.dest + usdc(9),
    )
    expect(await balanceOf(devnet, 10, tokenAddress(10, 'USDC'), user.address)).toBeLessThan(before.origin)
  })
})
