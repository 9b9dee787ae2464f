import type { IntentOp, Mandate, SignedIntentOp } from '../../spec'

/** The mandate every element shares (docs/settlement.md: one recipient, tokenOut, destination, deadline, ops). */
export function mandateOf(intentOp: IntentOp): Mandate {
  const first = intentOp.elements[0]
  if (!first) throw new Error('An intent has at least one element.')
  return first.mandate
}

/** The fields of a signed intentOp that are the IntentOp itself (signatures and options stripped). */
export function intentOpOf(signedIntentOp: SignedIntentOp): IntentOp {
  const {
    originSignatures: _o,
    destinationSignature: _d,
    targetExecutionSignature: _t,
    options: _x,
    ...intentOp
  } = signedIntentOp
  return intentOp as IntentOp
}
