import { type Address, getAddress, type Hex, recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { jsonEqual } from '../runner/matchers'
import { signIntentOp } from '../runner/signIntentOp'
import { type Draft, freshName, keyOf, note, reference, type Step } from './draft'
import { isSignature } from './volatile'

/**
 * Signatures in a request body that the client made over typed data an earlier answer gave
 * (blanc `signData`) or over an earlier `intentOp` (alps): replaced by the variable of a
 * `sign` / `signIntentOp` step that re-makes them at replay (the steps to run first are returned).
 *
 * @example
 * const { value, steps } = await signaturesOf(draft, JSON.parse(body))
 */
export async function signaturesOf(
  draft: Draft,
  body: unknown,
): Promise<{ value: unknown; steps: { step: Step; comment: string }[] }> {
  const made: { step: Step; comment: string }[] = []
  const walk = async (value: unknown, pointer: string): Promise<unknown> => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const o = value as Record<string, unknown>
      if (Array.isArray(o.originSignatures) && typeof o.destinationSignature === 'string') {
        const replaced = await alpsSignatures(o)
        if (replaced) return replaced
      }
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(o)) out[k] = await walk(v, `${pointer}/${k}`)
      return out
    }
    const all = Array.isArray(value) ? value : [value]
    if (all.length > 0 && all.every(isSignature) && !draft.sources.has(String(value))) {
      const replaced = await blancSignatures(value as Hex | Hex[], pointer)
      if (replaced) return replaced
    }
    if (!Array.isArray(value)) return value
    const out: unknown[] = []
    for (const [i, v] of value.entries()) out.push(await walk(v, `${pointer}/${i}`))
    return out
  }
  const alpsSignatures = async (signed: Record<string, unknown>): Promise<string | undefined> => {
    const { originSignatures, destinationSignature, ...op } = signed
    // A client may leave out the intentOp's empty lists (the SDK 1.x drops `signedAuthorizations: []`).
    const source = [...draft.intentOpSources].reverse().find((s) => {
      const given = s.value as Record<string, unknown>
      const kept = Object.fromEntries(
        Object.entries(given).filter(([k, v]) => k in op || !(Array.isArray(v) && v.length === 0)),
      )
      return jsonEqual(kept, op)
    })
    if (!source || typeof op.sponsor !== 'string') return undefined
    const account = keyOf(draft, op.sponsor)
    const name = freshName(draft, '/signedIntentOp')
    const step: Step = {
      name:
        typeof account === 'number'
          ? `sign the intentOp as devnet account ${account} (${getAddress(op.sponsor)})`
          : `sign the intentOp (needs the key of ${getAddress(op.sponsor)}: replay --key ${getAddress(op.sponsor)}=<private key>)`,
      signIntentOp: { intentOp: reference(draft, source), account },
      captureAs: name,
    }
    made.push({ step, comment: 'the client signed the intentOp the route answered' })
    if (typeof account === 'number') {
      const problem = await signIntentOp(op, privateKeyToAccount(draft.recording.accountKeys[account]!)).then(
        (again) =>
          // The SDK 1.x and the runner both send the last origin signature as the destination's;
          // for Compact funding the SDK 1.15 signs the older Compact's domain (bytes differ).
          jsonEqual(again.originSignatures, originSignatures) &&
          (again.destinationSignature === destinationSignature ||
            destinationSignature === again.originSignatures.at(-1))
            ? undefined
            : `step "${step.name}": the client's signatures differ from the ones the runner makes (SDK 1.x signing); the replay submits the runner's.`,
        (error: unknown) => `step "${step.name}": ${error instanceof Error ? error.message : String(error)}`,
      )
      if (problem) note(draft, problem)
    }
    return `\${${name}}`
  }
  const blancSignatures = async (value: Hex | Hex[], pointer: string): Promise<string | undefined> => {
    const list = Array.isArray(value) ? value : [value]
    for (const source of [...draft.typedDataSources].reverse()) {
      const data = source.value
      if (Array.isArray(value) !== Array.isArray(data)) continue
      const datas = (Array.isArray(data) ? data : [data]) as TypedDataJson[]
      if (datas.length !== list.length) continue
      const signer = await recoveredSigner(datas, list)
      if (!signer) continue
      const known = draft.accounts.includes(signer)
      if (
        !known &&
        !draft.requestAddresses.has(signer.toLowerCase()) &&
        !JSON.stringify(datas).toLowerCase().includes(signer.toLowerCase().slice(2))
      )
        continue
      const account = keyOf(draft, signer)
      const name = freshName(draft, pointer, 'Signed')
      made.push({
        step: {
          name:
            typeof account === 'number'
              ? `sign the typed data of ${source.pointer} as devnet account ${account} (${signer})`
              : `sign the typed data of ${source.pointer} (needs the key of ${signer}: replay --key ${signer}=<private key>)`,
          sign: { typedData: reference(draft, source), account },
          captureAs: name,
        },
        comment: 'the client signed typed data an earlier answer gave',
      })
      return `\${${name}}`
    }
    note(
      draft,
      `a signature at ${pointer} was made over data the recording does not show; it is replayed as recorded.`,
    )
    return undefined
  }
  return { value: await walk(body, ''), steps: made }
}

async function recoveredSigner(datas: TypedDataJson[], signatures: Hex[]): Promise<Address | undefined> {
  const found = await Promise.all(signatures.map((signature, i) => recoverTyped(datas[i]!, signature)))
  const first = found[0]
  return first && found.every((a) => a === first) ? first : undefined
}

export type TypedDataJson = {
  domain: Record<string, unknown>
  types: Record<string, unknown>
  primaryType: string
  message: Record<string, unknown>
}

/** Whether a value is EIP-712 typed data as an answer gives it to sign. */
export const isTypedData = (value: unknown): value is TypedDataJson =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  'types' in value &&
  'primaryType' in value &&
  'domain' in value &&
  'message' in value

/** The address that signed typed data as given (the runner signs it the same way: EIP712Domain implied). */
async function recoverTyped(data: TypedDataJson, signature: Hex): Promise<Address | undefined> {
  const { EIP712Domain: _, ...types } = data.types
  try {
    return await recoverTypedDataAddress({
      domain: data.domain,
      types,
      primaryType: data.primaryType,
      message: data.message,
      signature,
    } as unknown as Parameters<typeof recoverTypedDataAddress>[0])
  } catch {
    return undefined
  }
}
