import { parseUnits } from 'viem'
import { afterAll, beforeAll } from 'vitest'
import type { SignedIntentOp } from '../../../spec'
import { type Devnet, startDevnet } from '../../devnet/startDevnet'
import { createFaults } from '../../faults/faults'
import { createServices } from '../../startSimulator'

/** `n` USDC in raw units (6 decimals). */
export const usdc = (n: number) => parseUnits(String(n), 6)

/**
 * The settlement tests' own devnet (chains 10, 8453 and 42161, eight funded accounts) and the
 * services on it (in-process relayer), started in the calling file's beforeAll and stopped in its
 * afterAll (read `devnet` and `stack` inside tests); `submit` hands a signed intent to them.
 */
export function useSettlementDevnet() {
  let devnet: Devnet
  let stack: Awaited<ReturnType<typeof createServices>>
  beforeAll(async () => {
    devnet = await startDevnet({ chainIds: [10, 8453, 42161], accountCount: 8 })
    stack = await createServices({ devnet, faults: createFaults() })
  }, 120_000)
  afterAll(async () => {
    await stack?.stop()
    await devnet?.stop()
  })
  const submit = (signedIntentOp: SignedIntentOp) => stack.services.intents.submitOperation(signedIntentOp)
  return {
    get devnet() {
      return devnet
    },
    get stack() {
      return stack
    },
    submit,
  }
}
