import { encodeFunctionData } from 'viem'
import { addresses } from '../../contracts/addresses'
import { mandateOf } from '../intents/intentOp'
import type { SignedIntent } from '../intents/types'
import { fillerAbi } from './abis'
import { fillArgs, fillValue } from './contractArgs'
import type { PreparedCall, SettlementDevnet } from './types'

/** The relayer's `IntentFiller.fill(...)` of an intent on its destination chain (docs/settlement.md). */
export function prepareFill(
  devnet: Pick<SettlementDevnet, 'chain' | 'keys'>,
  signed: SignedIntent,
): PreparedCall {
  const chainId = Number(mandateOf(signed.intentOp).destinationChainId)
  const call = {
    account: devnet.keys.relayer.account,
    address: addresses.filler,
    abi: fillerAbi,
    functionName: 'fill',
    args: fillArgs(signed),
    value: fillValue(signed.intentOp),
  } as const
  return {
    chainId,
    to: addresses.filler,
    data: encodeFunctionData(call),
    value: call.value,
    simulate: async () => void (await devnet.chain(chainId).publicClient.simulateContract(call)),
  }
}
