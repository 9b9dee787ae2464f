import type { Abi } from 'viem'
import {
  IntentArbiter,
  IntentExecutor,
  IntentFiller,
  Permit2,
  TheCompact,
} from '../../contracts/generated/artifacts'

/** The error items of an ABI, their types kept (so the merged ABIs below stay fully typed). */
const errorsOf = <const abi extends Abi>(abi: abi) =>
  abi.filter((item): item is Extract<abi[number], { type: 'error' }> => item.type === 'error')

/** The filler's ABI plus the executor's errors (the filler wraps them, but a direct revert is possible too). */
export const fillerAbi = [...IntentFiller.abi, ...errorsOf(IntentExecutor.abi)]

const arbiterErrorNames = new Set<string>(errorsOf(IntentArbiter.abi).map((item) => item.name))

/** The arbiter's ABI plus the errors of The Compact and Permit2, which its claims bubble up. */
export const arbiterAbi = [
  ...IntentArbiter.abi,
  ...errorsOf(TheCompact.abi),
  // Permit2 and the arbiter may share error names; the arbiter's come first and win.
  ...errorsOf(Permit2.abi).filter((item) => !arbiterErrorNames.has(item.name)),
]
