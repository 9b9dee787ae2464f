import { type Address, erc20Abi, maxUint256 } from 'viem'
import { afterAll, beforeAll, expect } from 'vitest'
import { addresses } from '../../../contracts/addresses'
import type { DevKey } from '../../devnet/keys'
import { type Devnet, startDevnet } from '../../devnet/startDevnet'
import { createFaults } from '../../faults/faults'
import { type VersionedQuoting, withVersionedAnswers } from '../../http/testing/versionedQuoting'
import { createServices } from '../../startSimulator'
import type { QuotingServiceInstance } from '../createQuotingService'
import { routeRequests } from './routeRequests'

/** Only WETH on chain 10 may be spent: a USDC request on 8453 must be swapped. */
export const wethOn10 = { chainTokens: { '10': ['WETH'] } }

/** One entry of an alps quote's `tokensReceived`, with the raw amounts and what funded it. */
export type Received = {
  tokenAddress: string
  amountSpentRaw: string
  targetAmountRaw: string
  feeRaw: string
  feeBreakdown: Record<string, string>
  fundedBy: { chainId: number; symbol: string; amount: string; kind: string; value: string }[]
}
/** The `i`th entry of an alps quote's `tokensReceived`. */
export const received = (r: { intentCost: { tokensReceived: unknown[] } }, i = 0) =>
  r.intentCost.tokensReceived[i] as Received

/**
 * The swap tests' own devnet (chains 10 and 8453, six funded accounts) and the services on it
 * (createServices: in-process relayer), started in the calling file's beforeAll and stopped in
 * its afterAll (read `devnet`, `stack` and `quoting`, the stack's quoting with its answers shaped
 * per version, inside tests), with `account(i)`, a route `request` and `approvePermit2`.
 */
export function useSwapsDevnet() {
  let devnet: Devnet
  let quoting: QuotingServiceInstance & VersionedQuoting
  let stack: Awaited<ReturnType<typeof createServices>>
  beforeAll(async () => {
    devnet = await startDevnet({ chainIds: [10, 8453], accountCount: 6 })
    stack = await createServices({ devnet, faults: createFaults() })
    quoting = withVersionedAnswers(stack.quoting)
  }, 120_000)
  afterAll(async () => {
    await stack?.stop()
    await devnet?.stop()
  })

  /** `owner` approves Permit2 for all of a token on a chain (mined). */
  async function approvePermit2(owner: DevKey, chainId: number, address: Address) {
    const chain = devnet.chain(chainId)
    const hash = await chain.relayerClient.writeContract({
      account: owner.account,
      address,
      abi: erc20Abi,
      functionName: 'approve',
      args: [addresses.permit2, maxUint256],
    })
    expect((await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe(
      'success',
    )
  }

  return {
    get devnet() {
      return devnet
    },
    get quoting() {
      return quoting
    },
    get stack() {
      return stack
    },
    ...routeRequests(() => devnet),
    approvePermit2,
  }
}
