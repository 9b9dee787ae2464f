import type { Hash, TransactionReceipt } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ChainSender, RelayerTransaction } from '../devnet/chainSender'
import { withSettlementFaults } from './settlement'

/** A sender that records what it sends under its own name (no chain: this is the decorator's wiring). */
function recordingSender(name: string, sent: string[]): ChainSender {
  return {
    chainId: 10,
    send: async (tx: RelayerTransaction) => {
      sent.push(`${name} ${tx.to}`)
      return `0x${'ab'.repeat(32)}` as Hash
    },
    waitForReceipt: async () => ({ status: 'success' }) as TransactionReceipt,
  }
}

describe('withSettlementFaults', () => {
  it('sends through the sender the map holds at the time of the send (the root replaces it after a revert)', async () => {
    const sent: string[] = []
    const senders = new Map<number, ChainSender>([[10, recordingSender('before revert', sent)]])
    const decorated = withSettlementFaults(senders, { has: () => false })
    const tx = { to: `0x${'11'.repeat(20)}`, data: '0x' } as const
    await decorated.get(10)!.send(tx)
    senders.set(10, recordingSender('after revert', sent))
    await decorated.get(10)!.send(tx)
    expect(sent).toEqual([`before revert ${tx.to}`, `after revert ${tx.to}`])
    expect(decorated.get(10)!.chainId).toBe(10)
  })

  it('without the fault a claim is sent as it is, nothing more', async () => {
    const sent: string[] = []
    const decorated = withSettlementFaults(new Map([[10, recordingSender('s', sent)]]), { has: () => false })
    await decorated.get(10)!.send({ to: `0x${'22'.repeat(20)}`, data: '0x' })
    expect(sent).toHaveLength(1)
  })
})
