import { type Address, concat, erc20Abi, getAddress, type Hex, maxUint256, parseAbi, zeroAddress } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { addresses, tokensByChain } from '../../../contracts/addresses'
import { toLockId } from '../../../lib/lockTag'
import type { IntentOp, SignedIntentOp } from '../../../spec'
import { DEVNET_LOCK_TAG } from '../../devnet/funding'
import type { TypedDataJson } from '../../eip712/typedData'
import {
  compactTypedData,
  type OpJson,
  permit2TypedData,
  singleChainOpsTypedData,
  ZERO_VT,
} from '../../eip712/typedData'
import { signServerSignature } from '../../signing/serverSignature'
import { toTypedDataDefinition } from '../toTypedDataDefinition'
import type { SettlementDevnet } from '../types'

/**
 * Test helper: builds and signs an IntentOp by hand, exactly as docs/settlement.md maps it, so
 * settlement can be tested without the quoting service. Not used by the service itself.
 */

/** Who signs for the sponsor: an EOA, or a Nexus smart account owned by an EOA. */
export type IntentSigner =
  | { kind: 'EOA'; account: PrivateKeyAccount }
  | {
      kind: 'smartAccount'
      address: Address
      owner: PrivateKeyAccount
      setupOps: { to: Address; data: Hex }[]
    }

/** Parameters of {@link buildSignedIntent}. */
export type BuildSignedIntentParameters = {
  signer: IntentSigner
  server: PrivateKeyAccount
  fundingMethod: 'COMPACT' | 'PERMIT2'
  /** One element per origin: token symbol and raw amount. */
  origins: { chainId: number; symbol: string; amount: bigint }[]
  destination: { chainId: number; symbol: string; amount: bigint }
  recipient?: Address | undefined
  /** Destination calls run by the account through the IntentExecutor. */
  destinationOps?: { to: Address; value?: bigint; data: Hex }[] | undefined
  /** Unix seconds. */
  now: number
  fillDeadline?: number | undefined
  nonce?: bigint | undefined
  dryRun?: boolean | undefined
}

/** The address of a devnet token by symbol on a chain; throws when the chain has no such token. */
export const tokenAddress = (chainId: number, symbol: string): Address => {
  const token = (tokensByChain[chainId] ?? []).find((t) => t.symbol === symbol)
  if (!token) throw new Error(`No ${symbol} on chain ${chainId}.`)
  return token.address
}

let nonceCounter = BigInt(Date.now()) * 1_000n

/** Builds, server-signs and user-signs an intent; returns alps' `signedIntentOp` and the blanc `signData`. */
export async function buildSignedIntent(p: BuildSignedIntentParameters) {
  const sponsor = p.signer.kind === 'EOA' ? p.signer.account.address : p.signer.address
  const recipient = p.recipient ?? sponsor
  const nonce = p.nonce ?? nonceCounter++
  const fillDeadline = p.fillDeadline ?? p.now + 600
  const destinationOps: OpJson = {
    vt: ZERO_VT,
    ops: (p.destinationOps ?? []).map((o) => ({ to: o.to, value: String(o.value ?? 0n), data: o.data })),
  }
  const mandate = {
    recipient,
    tokenOut: [
      [
        String(toLockId(DEVNET_LOCK_TAG, tokenAddress(p.destination.chainId, p.destination.symbol))),
        String(p.destination.amount),
      ] as [string, string],
    ],
    destinationChainId: String(p.destination.chainId),
    fillDeadline: String(fillDeadline),
    minGas: '0',
    preClaimOps: { vt: ZERO_VT, ops: [] },
    destinationOps,
    qualifier: {
      settlementContext: { settlementLayer: 'INTENT_EXECUTOR', fundingMethod: p.fundingMethod },
      encodedVal: '0x' as Hex,
    },
  }
  const unsigned: IntentOp = {
    sponsor,
    nonce: String(nonce),
    expires: String(fillDeadline + 3600),
    targetExecutionNonce: String(nonce + 1n),
    elements: p.origins.map((o) => ({
      arbiter: addresses.arbiter,
      chainId: String(o.chainId),
      idsAndAmounts: [
        [String(toLockId(DEVNET_LOCK_TAG, tokenAddress(o.chainId, o.symbol))), String(o.amount)],
      ],
      mandate,
    })),
    serverSignature: '0x',
    signedMetadata: {
      tokenPrices: {},
      gasPrices: {},
      account: {
        address: sponsor,
        accountType: p.signer.kind === 'EOA' ? 'EOA' : 'ERC7579',
        setupOps: p.signer.kind === 'EOA' ? [] : p.signer.setupOps,
      },
    },
  }
  const intentOp: IntentOp = { ...unsigned, serverSignature: await signServerSignature(unsigned, p.server) }

  const origin: TypedDataJson[] =
    p.fundingMethod === 'COMPACT'
      ? intentOp.elements.map(() => compactTypedData(intentOp))
      : intentOp.elements.map((e) => permit2TypedData(e, intentOp.nonce, intentOp.expires))
  const destination = singleChainOpsTypedData({
    account: sponsor,
    nonce: intentOp.nonce,
    destinationChainId: p.destination.chainId,
    op: destinationOps,
  })
  const originSignatures = await Promise.all(origin.map((td) => signAs(p.signer, td)))
  const destinationSignature =
    destinationOps.ops.length > 0 ? await signAs(p.signer, destination) : (originSignatures.at(-1) as Hex)
  const signedIntentOp: SignedIntentOp = {
    ...intentOp,
    originSignatures,
    destinationSignature,
    ...(p.dryRun ? { options: { dryRun: true } } : {}),
  }
  return { intentOp, signedIntentOp, signData: { origin, destination } }
}

/** Signs typed data as the sponsor would: ECDSA for an EOA; validator (zero = default) ‖ ECDSA for a Nexus account. */
export async function signAs(signer: IntentSigner, typedData: TypedDataJson): Promise<Hex> {
  const td = toTypedDataDefinition(typedData)
  if (signer.kind === 'EOA') return signer.account.signTypedData(td)
  return concat([zeroAddress, await signer.owner.signTypedData(td)])
}

/** The account approves Permit2 for a token (what an EOA does once before PERMIT2 funding). */
export async function approvePermit2(
  devnet: SettlementDevnet,
  owner: PrivateKeyAccount,
  chainId: number,
  token: Address,
) {
  const chain = devnet.chain(chainId)
  const hash = await chain.relayerClient.writeContract({
    account: owner,
    address: token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [addresses.permit2, maxUint256],
  })
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  if (receipt.status !== 'success') throw new Error(`approve Permit2 reverted on ${chainId}`)
}

/** Reads an ERC-20 balance. */
export function balanceOf(devnet: SettlementDevnet, chainId: number, token: Address, owner: Address) {
  return devnet.chain(chainId).publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [getAddress(owner)],
  })
}

/** The Compact's ERC-6909 balance of a lock. */
export function compactBalanceOf(devnet: SettlementDevnet, chainId: number, token: Address, owner: Address) {
  return devnet.chain(chainId).publicClient.readContract({
    address: addresses.compact,
    abi: parseAbi(['function balanceOf(address owner, uint256 id) view returns (uint256)']),
    functionName: 'balanceOf',
    args: [getAddress(owner), toLockId(DEVNET_LOCK_TAG, token)],
  })
}

/**
 * Gives fresh accounts ether and a token on one chain (the funder mints), and has each approve
 * Permit2: the setup of a PERMIT2-funded EOA, for many accounts at once.
 */
export async function fundForPermit2(
  devnet: SettlementDevnet & { keys: { funder: { account: PrivateKeyAccount } } },
  owners: readonly PrivateKeyAccount[],
  chainId: number,
  symbol: string,
  amount: bigint,
) {
  const chain = devnet.chain(chainId)
  const token = tokenAddress(chainId, symbol)
  const mintAbi = parseAbi(['function mint(address to, uint256 amount)'])
  await Promise.all(owners.map((o) => chain.testClient.setBalance({ address: o.address, value: 10n ** 18n })))
  const funder = devnet.keys.funder.account
  let nonce = await chain.publicClient.getTransactionCount({ address: funder.address, blockTag: 'pending' })
  const hashes: Hex[] = []
  for (const o of owners)
    hashes.push(
      await chain.relayerClient.writeContract({
        account: funder,
        address: token,
        abi: mintAbi,
        functionName: 'mint',
        args: [o.address, amount],
        nonce: nonce++,
        gas: 200_000n,
      }),
    )
  hashes.push(
    ...(await Promise.all(
      owners.map((o) =>
        chain.relayerClient.writeContract({
          account: o,
          address: token,
          abi: erc20Abi,
          functionName: 'approve',
          args: [addresses.permit2, maxUint256],
          gas: 100_000n,
        }),
      ),
    )),
  )
  for (const hash of hashes) {
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== 'success') throw new Error(`funding transaction ${hash} reverted on ${chainId}`)
  }
}
