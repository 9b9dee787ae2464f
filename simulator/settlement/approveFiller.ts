import { encodeFunctionData, erc20Abi, maxUint256 } from 'viem'
import { addresses, tokensByChain } from '../../contracts/addresses'
import { SettlementStepError } from './errors'
import { sendAndWait } from './sendAndWait'
import type { SettlementContext } from './types'

/**
 * Approves the filler to move every devnet token of the relayer, on every chain, once (an
 * allowance above half of the maximum is left as it is); the filler pays recipients from it.
 */
export async function approveFiller(
  context: Pick<SettlementContext, 'devnet' | 'senders' | 'log'>,
): Promise<void> {
  const relayer = context.devnet.keys.relayer.account.address
  await Promise.all(
    context.devnet.chains.map(async (chain) => {
      for (const token of tokensByChain[chain.chainId] ?? []) {
        const allowance = await chain.publicClient
          .readContract({
            address: token.address,
            abi: erc20Abi,
            functionName: 'allowance',
            args: [relayer, addresses.filler],
          })
          .catch(() => undefined)
        if (allowance === undefined || allowance > maxUint256 / 2n) continue
        const { hash, receipt } = await sendAndWait(context, chain.chainId, {
          to: token.address,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'approve',
            args: [addresses.filler, maxUint256],
          }),
        })
        if (receipt.status !== 'success')
          throw new SettlementStepError(
            `The relayer's approval of ${token.symbol} on chain ${chain.chainId} (${hash}) reverted.`,
          )
      }
    }),
  )
}
