import type { Hex } from 'viem'
import { addresses } from '../../contracts/addresses'
import { mandateOf } from '../intents/intentOp'
import type { SignedIntent } from '../intents/types'
import { fillerAbi } from './abis'
import { fillArgs } from './contractArgs'
import type { SettlementDevnet } from './types'

/** The intent's fill id, as the filler computes it on the destination (the arbiter derives the same one). */
export function getFillId(devnet: Pick<SettlementDevnet, 'chain'>, signed: SignedIntent): Promise<Hex> {
  const [sponsor, nonce, target] = fillArgs(signed)
  return devnet.chain(Number(mandateOf(signed.intentOp).destinationChainId)).publicClient.readContract({
    address: addresses.filler,
    abi: fillerAbi,
    functionName: 'getFillId',
    args: [sponsor, nonce, target],
  })
}
