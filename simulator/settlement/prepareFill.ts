import { addresses } from '../../contracts/addresses'
import { encodeCall } from '../../lib/encodeCall'
import { mandateOf } from '../intents/intentOp'
import type { SignedIntent } from '../intents/types'
import { fillerAbi } from './abis'
import { fillArgs, fillValue } from './contractArgs'
import { fillMandateArgs, originSignatureIndex } from './fillMandateArgs'
import type { PreparedCall, SettlementDevnet } from './types'

/**
 * The relayer's fill of an intent on its destination chain (docs/settlement.md):
 * `IntentFiller.fillMandate(...)` when the destination signature is one of the origin signatures
 * (the public SDK 1.x), so the executor verifies the origin signature over the Mandate; else
 * `IntentFiller.fill(...)` with a SingleChainOps signature (or no destination ops).
 */
export function prepareFill(
  devnet: Pick<SettlementDevnet, 'chain' | 'keys'>,
  signed: SignedIntent,
): PreparedCall {
  const chainId = Number(mandateOf(signed.intentOp).destinationChainId)
  const base = {
    account: devnet.keys.relayer.account,
    address: addresses.filler,
    abi: fillerAbi,
    value: fillValue(signed.intentOp),
  } as const
  const client = () => devnet.chain(chainId).publicClient
  const index = originSignatureIndex(signed)
  if (index === undefined) {
    const call = { ...base, functionName: 'fill', args: fillArgs(signed) } as const
    return {
      chainId,
      to: addresses.filler,
      data: encodeCall(call),
      value: call.value,
      simulate: async () => void (await client().simulateContract(call)),
    }
  }
  const call = { ...base, functionName: 'fillMandate', args: fillMandateArgs(signed, index) } as const
  return {
    chainId,
    to: addresses.filler,
    data: encodeCall(call),
    value: call.value,
    simulate: async () => void (await client().simulateContract(call)),
  }
}
