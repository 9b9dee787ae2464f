// Own devnet, not the shared one: its in-process relayer (createServices) would share the relayer key with the shared service (two nonce queues on one key).
import { type Hex, keccak256, parseEther, type TypedDataDefinition, toHex, zeroAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import type { IntentOp } from '../../spec'
import { compactTypedData } from '../eip712/typedData'
import { balanceOf, compactBalanceOf } from '../settlement/testing/buildSignedIntent'
import { waitForStatus } from '../settlement/testing/waitForStatus'
import { token, usdc } from './testing/routeRequests'
import { received, useSwapsDevnet, wethOn10 } from './testing/useSwapsDevnet'
import type { StoredQuotedIntent } from './types'

/**
 * Swaps and native ETH: settlement on the devnet (a swap intent and a native-ETH-out intent reach
 * COMPLETED and the recipient receives exactly tokenOut).
 */
const fx = useSwapsDevnet()
const { account, request, approvePermit2 } = fx
const freshAddress = (label: string) => privateKeyToAccount(keccak256(toHex(label))).address

const waitFor = (id: string) =>
  waitForStatus(fx.stack.services.intents, id, ['COMPLETED', 'FAILED', 'EXPIRED'], 60_000)

/** Signs an alps COMPACT intent as an EOA (one MultichainCompact) and submits it. */
async function submitCompact(intentOp: IntentOp, signer: (typeof fx.devnet.keys.accounts)[number]) {
  const signature = await signer.account.signTypedData(
    compactTypedData(intentOp) as unknown as TypedDataDefinition,
  )
  const originSignatures = intentOp.elements.map(() => signature) as [Hex, ...Hex[]]
  const result = await fx.stack.services.intents.submitOperation({
    ...intentOp,
    originSignatures,
    destinationSignature: signature,
  })
  return waitFor(result.id)
}

describe('settlement of swap and native-ETH intents on the devnet', () => {
  test('alps: WETH locked on 10 → USDC on 8453 reaches COMPLETED; the recipient gets exactly tokenOut', async () => {
    const user = account(2)
    const recipient = freshAddress('swaps.test usdc recipient')
    const alps = await fx.quoting.routeAlps(
      request({
        account: { address: user.address, accountType: 'EOA' },
        recipient: { address: recipient },
        tokenRequests: [{ tokenAddress: token(8453, 'USDC'), amount: usdc(250).toString() }],
        accountAccessList: wethOn10,
      }),
    )
    const wethAmount = alps.intentOp.elements[0]?.idsAndAmounts[0]?.[1] ?? '0'
    expect(BigInt(wethAmount)).toBeGreaterThan(0n)
    const lockBefore = await compactBalanceOf(fx.devnet, 10, token(10, 'WETH'), user.address)
    const status = await submitCompact(alps.intentOp, user)
    expect(status.status).toBe('COMPLETED')
    expect(await balanceOf(fx.devnet, 8453, token(8453, 'USDC'), recipient)).toBe(usdc(250))
    expect(await compactBalanceOf(fx.devnet, 10, token(10, 'WETH'), user.address)).toBe(
      lockBefore - BigInt(wethAmount),
    )
  })

  test('blanc: WETH through Permit2 on 10 → USDC on 8453, signed as given, reaches COMPLETED', async () => {
    const user = account(3)
    const recipient = freshAddress('swaps.test permit2 recipient')
    await approvePermit2(user, 10, token(10, 'WETH'))
    const response = await fx.quoting.routeBlanc(
      request({
        account: { address: user.address, accountType: 'EOA' },
        recipient: { address: recipient },
        tokenRequests: [{ tokenAddress: token(8453, 'USDC'), amount: usdc(40_000).toString() }],
        accountAccessList: wethOn10,
      }),
    )
    // 40,000 USDC is more than the 10 locked WETH: only the wallet's WETH (Permit2) can pay.
    const route = response.routes[0] as (typeof response.routes)[number]
    const quoted = fx.quoting.quotes.get(route.intentId)?.quote as StoredQuotedIntent
    expect(quoted.fundingMethod).toBe('PERMIT2')
    expect(quoted.sources.flat().map((s) => s.kind)).toEqual(['SWAP'])
    const wethBefore = await balanceOf(fx.devnet, 10, token(10, 'WETH'), user.address)
    const origin = await Promise.all(
      route.signData.origin.map((td) => user.account.signTypedData(td as unknown as TypedDataDefinition)),
    )
    const destination = await user.account.signTypedData(
      route.signData.destination as unknown as TypedDataDefinition,
    )
    const submitted = await fx.stack.services.intents.submitQuoted(route.intentId, {
      originSignatures: origin,
      destinationSignature: destination,
    })
    const status = await waitFor(String(submitted.id))
    expect(status.status).toBe('COMPLETED')
    expect(await balanceOf(fx.devnet, 8453, token(8453, 'USDC'), recipient)).toBe(usdc(40_000))
    expect(await balanceOf(fx.devnet, 10, token(10, 'WETH'), user.address)).toBe(
      wethBefore - (quoted.sources[0]?.[0]?.amount ?? 0n),
    )
  })

  test('native ETH out: from an ETH lock, and from WETH 1:1; the recipient gets exactly tokenOut in ether', async () => {
    const user = account(4)
    for (const [label, tokens] of [
      ['eth', ['ETH']],
      ['weth', ['WETH']],
    ] as const) {
      const recipient = freshAddress(`swaps.test native recipient ${label}`)
      const amount = parseEther('0.75')
      const alps = await fx.quoting.routeAlps(
        request({
          account: { address: user.address, accountType: 'EOA' },
          recipient: { address: recipient },
          tokenRequests: [{ tokenAddress: zeroAddress, amount: amount.toString() }],
          accountAccessList: { chainIds: [10], tokens: [...tokens] },
        }),
      )
      expect(received(alps).fundedBy.map((f) => f.symbol)).toEqual([...tokens])
      const status = await submitCompact(alps.intentOp, user)
      expect(status.status).toBe('COMPLETED')
      expect(await fx.devnet.chain(8453).publicClient.getBalance({ address: recipient })).toBe(amount)
    }
  })
})
