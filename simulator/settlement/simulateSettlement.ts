import type { SignedAuthorizationList } from 'viem'
import { mandateOf } from '../intents/intentOp'
import type { SignedIntent, SimulatedStep, SimulationResult } from '../intents/types'
import { hasDestinationOps } from './contractArgs'
import { describeRevert } from './describeRevert'
import { getAuthorizations } from './getAuthorizations'
import { getSetupCalls } from './getSetupCalls'
import { prepareClaim } from './prepareClaim'
import { prepareFill } from './prepareFill'
import type { PreparedCall, SettlementContext } from './types'

/**
 * A dry run: every step the relayer would send (the account's setup, the fill, each claim) is
 * simulated with eth_call (a revert decoded) and eth_estimateGas; nothing is sent.
 *
 * @example
 * const { wouldSettle, reason, steps } = await simulateSettlement(context, signed)
 */
export async function simulateSettlement(
  context: Pick<SettlementContext, 'devnet' | 'domainSeparators'>,
  signed: SignedIntent,
): Promise<SimulationResult> {
  const { devnet } = context
  const account = devnet.keys.relayer.account
  const steps: SimulatedStep[] = []
  const attempt = async (step: SimulatedStep['step'], chainId: number, fn: () => Promise<bigint>) => {
    try {
      steps.push({ step, chainId, ok: true, gas: (await fn()).toString() })
    } catch (error) {
      steps.push({ step, chainId, ok: false, error: describeRevert(error) })
    }
  }
  const estimate = (call: PreparedCall, authorizationList?: SignedAuthorizationList) =>
    devnet.chain(call.chainId).publicClient.estimateGas({
      account,
      to: call.to,
      data: call.data,
      value: call.value,
      ...(authorizationList ? { authorizationList } : {}),
    })

  const destination = Number(mandateOf(signed.intentOp).destinationChainId)
  const { publicClient } = devnet.chain(destination)
  const setup = hasDestinationOps(signed.intentOp) ? await getSetupCalls(devnet, signed, destination) : []
  for (const tx of setup)
    await attempt('setup', destination, () => publicClient.estimateGas({ account, to: tx.to, data: tx.data }))
  if (setup.length > 0)
    steps.push({
      step: 'fill',
      chainId: destination,
      ok: true,
      error: 'not simulated: the account is deployed by its setup calls first',
    })
  else
    await attempt('fill', destination, async () => {
      const call = prepareFill(devnet, signed)
      const authorizationList = await getAuthorizations(devnet, signed, destination)
      // Without its authorization applied the account has no code: only the estimate carries it.
      if (!authorizationList) await call.simulate()
      return estimate(call, authorizationList)
    })
  await Promise.all(
    signed.intentOp.elements.map((element, index) =>
      attempt('claim', Number(element.chainId), async () => {
        const call = await prepareClaim(context, signed, index)
        await call.simulate()
        return estimate(call)
      }),
    ),
  )
  const failed = steps.find((s) => !s.ok)
  return {
    wouldSettle: !failed,
    ...(failed ? { reason: `${failed.step} on chain ${failed.chainId}: ${failed.error}` } : {}),
    steps,
  }
}
