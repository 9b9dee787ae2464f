import { type Address, erc20Abi, getAddress, type Hex, maxUint256 } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { addresses } from '../../../contracts/addresses'
import { TheCompact } from '../../../contracts/generated/artifacts'
import { DEVNET_LOCK_TAG } from '../../devnet/funding'
import type { SettlementDevnet } from '../types'
import { tokenAddress } from './buildSignedIntent'

/**
 * Test helpers for end-to-end tests over HTTP: a small client of the running service, a status
 * follower that records every status it sees, and chain checks (mined transactions and their
 * targets, Compact deposits for any account). Not used by the service itself.
 */

/** The alps API version header value. */
export const ALPS = '2026-01.alps'
/** The blanc API version header value. */
export const BLANC = '2026-04.blanc'

/** One HTTP answer: status and parsed JSON body. */
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes
export type HttpAnswer = { status: number; body: any }

/** A minimal HTTP client of the service (API key, optional version header). */
export function createE2eClient(service: { baseUrl: string; apiKey: string }) {
  async function call(method: string, path: string, body?: unknown, version?: string): Promise<HttpAnswer> {
    const response = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: {
        'x-api-key': service.apiKey,
        ...(version ? { 'x-api-version': version } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : undefined }
  }

  /**
   * Polls a status path every `intervalMs` until a final status (COMPLETED, FAILED, EXPIRED);
   * returns the final body and every distinct status seen, in order.
   */
  async function follow(
    path: string,
    version: string,
    options: { timeoutMs?: number; intervalMs?: number } = {},
  ) {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000)
    const seen: string[] = []
    for (;;) {
      const { status, body } = await call('GET', path, undefined, version)
      if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${JSON.stringify(body)}`)
      if (seen.at(-1) !== body.status) seen.push(body.status)
      if (FINAL.includes(body.status)) return { body, seen }
      if (Date.now() > deadline)
        throw new Error(`${path} stuck at ${JSON.stringify(body)} (seen ${seen.join(' → ')})`)
      await new Promise((r) => setTimeout(r, options.intervalMs ?? 10))
    }
  }

  return { call, follow }
}

const FINAL = ['COMPLETED', 'FAILED', 'EXPIRED']
/** The lifecycle's forward order (docs/settlement-runtime.md, "Statuses"). */
export const STATUS_ORDER = ['PENDING', 'PRECONFIRMED', 'FILLED', 'COMPLETED'] as const

/**
 * Whether `seen` is a legal run of a completed intent: statuses in lifecycle order, never going
 * back, ending at COMPLETED. (Polling may skip a status; it may never see one out of order.)
 */
export function isForwardRunToCompleted(seen: readonly string[]): boolean {
  const ranks = seen.map((s) => STATUS_ORDER.indexOf(s as (typeof STATUS_ORDER)[number]))
  return (
    ranks.every((r) => r >= 0) &&
    ranks.every((r, i) => i === 0 || r > ranks[i - 1]!) &&
    seen.at(-1) === 'COMPLETED'
  )
}

/**
 * Checks that `hash` is a mined, successful transaction on `chainId` sent to `to`; returns the
 * problem, or undefined.
 */
export async function minedTransactionProblem(
  devnet: Pick<SettlementDevnet, 'chain'>,
  chainId: number,
  hash: Hex | null | undefined,
  to: Address,
): Promise<string | undefined> {
  if (!hash) return `no transaction hash for chain ${chainId}`
  const { publicClient } = devnet.chain(chainId)
  const tx = await publicClient.getTransaction({ hash }).catch(() => undefined)
  if (!tx) return `${hash} is not a transaction on chain ${chainId}`
  const receipt = await publicClient.getTransactionReceipt({ hash }).catch(() => undefined)
  if (!receipt) return `${hash} is not mined on chain ${chainId}`
  if (receipt.status !== 'success') return `${hash} reverted on chain ${chainId}`
  if (!tx.to || getAddress(tx.to) !== getAddress(to))
    return `${hash} on chain ${chainId} went to ${tx.to}, not ${to}`
  return undefined
}

/**
 * Anyone can lock tokens in the Compact for an account: `from` (a funded devnet account) approves
 * the Compact and calls `depositERC20(token, DEVNET_LOCK_TAG, amount, recipient)`.
 */
export async function depositToCompactFor(
  devnet: Pick<SettlementDevnet, 'chain'>,
  from: PrivateKeyAccount,
  chainId: number,
  symbol: string,
  amount: bigint,
  recipient: Address,
) {
  const chain = devnet.chain(chainId)
  const token = tokenAddress(chainId, symbol)
  const send = async (hash: Hex) => {
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== 'success') throw new Error(`deposit step ${hash} reverted on ${chainId}`)
  }
  const allowance = await chain.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [from.address, addresses.compact],
  })
  if (allowance < amount)
    await send(
      await chain.relayerClient.writeContract({
        account: from,
        address: token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [addresses.compact, maxUint256],
      }),
    )
  await send(
    await chain.relayerClient.writeContract({
      account: from,
      address: addresses.compact,
      abi: TheCompact.abi,
      functionName: 'depositERC20',
      args: [token, DEVNET_LOCK_TAG, amount, recipient],
    }),
  )
}
