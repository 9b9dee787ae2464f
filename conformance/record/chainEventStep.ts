import {
  type Address,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
} from 'viem'
import { type Draft, keyOf, note, type Step, substitute } from './draft'
import type { RecordedTransaction } from './recording'

/**
 * A chain step for a transaction a client sent through an RPC proxy: an ERC-20 `transfer` or
 * `approve` as such, anything else as `sendTransaction`; undefined (with a note) for what cannot
 * be replayed (refused, no sender, a contract creation).
 *
 * @example
 * const step = await chainEventStep(draft, event)
 */
export async function chainEventStep(draft: Draft, event: RecordedTransaction): Promise<Step | undefined> {
  let from: Address
  let to: Address | undefined
  let data: Hex = '0x'
  let value = 0n
  if (event.error) {
    note(
      draft,
      `a transaction on chain ${event.chainId} at +${event.at} ms was refused (${event.error}); not replayed.`,
    )
    return undefined
  }
  if (event.method === 'eth_sendRawTransaction') {
    const raw = event.params as TransactionSerialized
    const tx = parseTransaction(raw)
    const sender = await recoverTransactionAddress({ serializedTransaction: raw }).catch(() => undefined)
    if (!sender) {
      note(draft, `a raw transaction on chain ${event.chainId} has no recoverable sender; not replayed.`)
      return undefined
    }
    from = sender
    to = tx.to ?? undefined
    data = tx.data ?? '0x'
    value = tx.value ?? 0n
  } else {
    const p = event.params as { from: Address; to?: Address; data?: Hex; input?: Hex; value?: Hex }
    from = getAddress(p.from)
    to = p.to ?? undefined
    data = p.data ?? p.input ?? '0x'
    value = BigInt(p.value ?? 0)
  }
  if (!to) {
    note(draft, `a contract creation on chain ${event.chainId} is not replayable as a chain step; left out.`)
    return undefined
  }
  const account = keyOf(draft, from)
  const who = typeof account === 'number' ? `devnet account ${account}` : `${from} (needs its key)`
  const base = { chainId: event.chainId, from: account }
  try {
    const call = decodeFunctionData({ abi: erc20Abi, data })
    if (call.functionName === 'transfer' && value === 0n) {
      const [recipient, amount] = call.args
      return {
        name: `${who} transfers ${amount} of token ${to} on chain ${event.chainId}`,
        chain: {
          action: 'transfer',
          ...base,
          to: substitute(draft, recipient),
          token: substitute(draft, to),
          amount: String(amount),
        },
      }
    }
    if (call.functionName === 'approve' && value === 0n) {
      const [spender, amount] = call.args
      return {
        name: `${who} approves ${spender} for token ${to} on chain ${event.chainId}`,
        chain: {
          action: 'approve',
          ...base,
          token: substitute(draft, to),
          spender: substitute(draft, spender),
          amount: String(amount),
        },
      }
    }
  } catch {}
  return {
    name: `${who} sends a transaction to ${to} on chain ${event.chainId}`,
    chain: { action: 'sendTransaction', ...base, to: substitute(draft, to), data, value: String(value) },
  }
}
