import { type Address, decodeFunctionData, encodeFunctionData, erc20Abi, getAddress, zeroAddress } from 'viem'
import { addresses } from '../../contracts/addresses'
import { IntentArbiter } from '../../contracts/generated/artifacts'
import type { ChainSender, RelayerTransaction } from '../devnet/chainSender'
import type { Faults } from '../faults/faults'

/** The sponsor and the first token of a claim the relayer sends to the arbiter; undefined for any other transaction. */
function claimOf(tx: RelayerTransaction): { sponsor: Address; token: Address } | undefined {
  if (tx.to.toLowerCase() !== addresses.arbiter.toLowerCase()) return undefined
  try {
    const { functionName, args } = decodeFunctionData({ abi: IntentArbiter.abi, data: tx.data })
    if (functionName !== 'claimCompact' && functionName !== 'claimPermit2') return undefined
    const [params] = args as unknown as [{ sponsor: Address; idsAndAmounts: readonly (readonly bigint[])[] }]
    const id = params.idsAndAmounts[0]?.[0]
    if (id === undefined) return undefined
    // A lock id's low 160 bits are its token (the zero address: native ether).
    return {
      sponsor: params.sponsor,
      token: getAddress(`0x${(id & ((1n << 160n) - 1n)).toString(16).padStart(40, '0')}`),
    }
  } catch {
    return undefined
  }
}

/**
 * The relayer's senders with `intents.refund-sponsor-one-unit` around them: once a claim on an
 * origin chain is mined, the relayer sends the sponsor one unit of the claimed token back
 * there, and only then answers the claim's hash (so the intent is COMPLETED after both). The
 * sponsor's funds on that chain then move by one unit other than the quote says: the claim takes
 * exactly what was signed (the arbiter and The Compact or Permit2 see to that), the refund lands
 * in the wallet. The settlement itself knows no fault: the composition root hands these senders
 * to it, and the deposit processor keeps the plain ones (the same queues, so nonces never
 * collide).
 *
 * @example
 * createSettlement({ devnet, store, senders: withSettlementFaults(senders, faults) })
 */
export function withSettlementFaults(
  senders: ReadonlyMap<number, ChainSender>,
  faults: Pick<Faults, 'has'>,
): ReadonlyMap<number, ChainSender> {
  // Each call looks its sender up in `senders` then, never before: the root replaces a chain's
  // sender after a devnet revert (its nonces start again from the chain), and a sender kept from
  // before would send with nonces Anvil holds pending, so every later intent would hang.
  const decorate = (chainId: number): ChainSender => {
    const current = () => senders.get(chainId)!
    return {
      chainId,
      waitForReceipt: (hash) => current().waitForReceipt(hash),
      send: async (tx, options) => {
        const sender = current()
        const hash = await sender.send(tx, options)
        const claim = faults.has('intents.refund-sponsor-one-unit') ? claimOf(tx) : undefined
        if (!claim) return hash
        const claimed = await sender.waitForReceipt(hash)
        if (claimed.status !== 'success') return hash
        const refund: RelayerTransaction =
          claim.token === zeroAddress
            ? { to: claim.sponsor, data: '0x', value: 1n }
            : {
                to: claim.token,
                data: encodeFunctionData({
                  abi: erc20Abi,
                  functionName: 'transfer',
                  args: [claim.sponsor, 1n],
                }),
              }
        await sender.waitForReceipt(await sender.send(refund))
        return hash
      },
    }
  }
  return new Map([...senders.keys()].map((chainId) => [chainId, decorate(chainId)]))
}
