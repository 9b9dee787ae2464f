import { type Address, decodeFunctionResult, getAddress, type Hex, parseAbi } from 'viem'
import { addresses } from '../../contracts/addresses'
import { Multicall3 } from '../../contracts/generated/artifacts'
import { encodeCall } from '../../lib/encodeCall'
import { hashTypedData } from '../../lib/hashTypedData'
import { recoverSigner } from '../../lib/nativeSign'
import type { TypedDataJson } from '../eip712/typedData'
import type { SignedIntent } from '../intents/types'
import { toTypedDataDefinition } from './toTypedDataDefinition'
import type { SettlementDevnet } from './types'

const ERC1271_MAGIC = '0x1626ba7e'
const erc1271Abi = parseAbi([
  'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)',
])

/**
 * Whether `signature` is the signer's over `typedData` on `chainId`: undefined when it is,
 * otherwise why not. ECDSA first; then ERC-1271 through eth_call for an account with code, or,
 * for an account not deployed yet, its setup calls and `isValidSignature` in one Multicall3 eth_call.
 * `delegation`: the EIP-7702 delegate the intent's authorization names for this chain; while it is
 * not applied, the eth_call overrides the account's code with that delegation (0xef0100 ‖ delegate).
 * `digest`: the typed data's EIP-712 digest when the caller has it already (the same typed data
 * checked for several signatures); computed here otherwise.
 */
export async function checkSignature(
  devnet: Pick<SettlementDevnet, 'chain'>,
  chainId: number,
  signer: Address,
  typedData: TypedDataJson,
  signature: Hex,
  setupOps: SignedIntent['setupOps'],
  delegation?: Address | undefined,
  digest?: Hex | undefined,
): Promise<string | undefined> {
  const hash = digest ?? hashTypedData(toTypedDataDefinition(typedData))
  // An EOA (or a 7702-delegated EOA signing with its own key): plain ECDSA.
  const recovered = await recoverSigner({ hash, signature }).catch(() => undefined)
  if (recovered === signer) return undefined
  const { publicClient } = devnet.chain(chainId)
  const code = await publicClient.getCode({ address: signer })
  const designator = delegation ? (`0xef0100${delegation.slice(2)}` as Hex) : undefined
  const pendingDelegation = designator !== undefined && code?.toLowerCase() !== designator.toLowerCase()
  const validate = encodeCall({
    abi: erc1271Abi,
    functionName: 'isValidSignature',
    args: [hash, signature],
  })
  if (code && code !== '0x' && !pendingDelegation) {
    const result = await publicClient
      .call({ to: signer, data: validate })
      .then((r) => r.data)
      .catch(() => undefined)
    if (result && result.slice(0, 10).toLowerCase() === ERC1271_MAGIC) return undefined
    return 'ERC-1271 isValidSignature refused it'
  }
  if (setupOps.length === 0) return recovered ? `ECDSA recovers ${recovered}` : 'not a valid ECDSA signature'
  // A counterfactual account: deploy it and ask it, in one eth_call through Multicall3.
  const calls = [
    ...setupOps.map((op) => ({ target: getAddress(op.to), allowFailure: false, callData: op.data })),
    { target: signer, allowFailure: true, callData: validate },
  ]
  const data = encodeCall({ abi: Multicall3.abi, functionName: 'aggregate3', args: [calls] })
  const result = await publicClient
    .call({
      to: addresses.multicall3,
      data,
      ...(pendingDelegation ? { stateOverride: [{ address: signer, code: designator }] } : {}),
    })
    .then((r) =>
      r.data
        ? decodeFunctionResult({ abi: Multicall3.abi, functionName: 'aggregate3', data: r.data })
        : undefined,
    )
    .catch(() => undefined)
  const last = result?.[result.length - 1]
  if (last?.success && last.returnData.slice(0, 10).toLowerCase() === ERC1271_MAGIC) return undefined
  return result
    ? 'ERC-1271 isValidSignature (after the account setup) refused it'
    : 'the account setup calls revert'
}
