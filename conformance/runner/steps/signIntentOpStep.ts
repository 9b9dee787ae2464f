import { isAddress } from 'viem'
import type { SignIntentOpStep } from '../../scenario/schema'
import { signerAccount } from '../chainClients'
import { interpolate } from '../interpolate'
import { namedContract } from '../namedContract'
import { CANONICAL_SIGNING_CONTRACTS, type SigningContracts, signIntentOp } from '../signIntentOp'
import type { TargetCapabilities } from '../types'
import type { StepRun } from './stepRun'

/** `signIntentOp`: signs an alps intentOp as an integrator's client does, and captures the signed operation. */
export async function signIntentOpStep(step: SignIntentOpStep, run: StepRun): Promise<void> {
  const { caps } = run.context
  const sign = interpolate(step.signIntentOp, run.vars)
  const account = signerAccount(caps, sign.account)
  run.vars[step.captureAs] = await signIntentOp(sign.intentOp, account, signingContracts(caps), {
    notSponsor: sign.notSponsor === true,
    smartAccount: sign.smartAccount === true,
  })
}

/** The Compact, Permit2 and IntentExecutor of each chain as the target names them, else canonical. */
function signingContracts(caps: TargetCapabilities): SigningContracts {
  return (name, chainId) => {
    const named = namedContract(caps, name, chainId)
    return named && isAddress(named, { strict: false }) ? named : CANONICAL_SIGNING_CONTRACTS(name, chainId)
  }
}
