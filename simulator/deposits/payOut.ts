import { encodeFunctionData, erc20Abi, getAddress, type Hash, type Hex, zeroAddress } from 'viem'
import { BRIDGE_ERROR_CODE, type DepositEventData, emitDepositEvent, failDeposit } from './depositEvents'
import type { DepositRecord } from './depositRecord'
import { resolveTargetToken } from './resolveTargetToken'
import { planPayout } from './rules'
import type { DepositChain, DepositContext } from './types'

/**
 * How often a payout's receipt is polled while it is not mined, ms (as the relayer's sender
 * polls: devnet/chainSender.ts). Anvil mines on send, so the first look finds it; on a devnet
 * with `--block-time` it comes within a block, not at viem's 4 s default for a chain without a
 * block time.
 */
const RECEIPT_POLL_MS = 20

type Target = NonNullable<DepositRecord['target']>

/**
 * Decides where an accepted deposit goes and what it pays (fees at the prices and gas price of
 * the moment, sponsorship of the source chain). Fails the deposit (BRIDGE-1) when the account
 * lost its target or the fees take the whole amount (nothing would be paid out).
 */
async function planTarget(context: DepositContext, record: DepositRecord): Promise<Target | undefined> {
  const { store, tokens } = context
  const registration = store.config.registration(record.account)
  const source = tokens.token(record.chainId, record.token)
  const targetToken = registration && source ? resolveTargetToken(tokens, registration, source) : undefined
  const chain = registration ? context.chains.get(registration.targetChainId) : undefined
  if (!source || !targetToken || !chain) {
    failDeposit(
      context,
      record,
      'failed',
      BRIDGE_ERROR_CODE,
      'The account is no longer registered to a known target.',
    )
    return undefined
  }
  const [gasPrice, code] = await Promise.all([
    chain.publicClient.getGasPrice(),
    chain.publicClient.getCode({ address: record.account }),
  ])
  const plan = planPayout({
    amount: BigInt(record.amount),
    token: source,
    targetToken,
    sponsorship: store.config.config(record.tenantId).sponsorship[`eip155:${record.chainId}`],
    accountDeployed: code !== undefined && code !== '0x',
    gasPrice,
    prices: context.prices,
  })
  if (plan.amount <= 0n) {
    failDeposit(
      context,
      record,
      'failed',
      BRIDGE_ERROR_CODE,
      `The fees (gas ${plan.gasFee}, bridging ${plan.bridgingFee}) take all of the bridged amount ${plan.grossAmount}: nothing is left to pay out.`,
    )
    return undefined
  }
  return {
    chainId: chain.chainId,
    token: getAddress(targetToken.address),
    symbol: targetToken.symbol,
    amount: plan.amount.toString(),
    grossAmount: plan.grossAmount.toString(),
    fees: { gas: plan.gasFee.toString(), bridging: plan.bridgingFee.toString() },
    gasSponsored: plan.gasSponsored,
    bridgingSponsored: plan.bridgingSponsored,
  }
}

/**
 * Where a recorded payout transaction stands after a restart: mined (its receipt), or gone. It
 * may have been recorded and never broadcast (a crash in between): then the very same signed
 * transaction is broadcast now. Gone means it is not on chain and cannot be any more (never
 * broadcast and its nonce since used, or dropped): sending a new payout is then safe.
 */
export async function findPayout(chain: DepositChain, record: DepositRecord) {
  const hash = record.bridgeTransactionHash
  if (!hash) return undefined
  const mined = () => chain.publicClient.getTransactionReceipt({ hash }).catch(() => undefined)
  const receipt = await mined()
  if (receipt) return receipt
  const known = await chain.publicClient.getTransaction({ hash }).catch(() => undefined)
  if (!known && record.bridgeRawTransaction) {
    const sent = await chain.publicClient
      .sendRawTransaction({ serializedTransaction: record.bridgeRawTransaction })
      .then(
        () => true,
        () => false,
      )
    // Refused (its nonce is taken): mined meanwhile, or never will be.
    if (!sent) return mined()
  } else if (!known) return undefined
  return chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: RECEIPT_POLL_MS })
}

/** The relayer's transfer of `target` to the account: ether, or the token's `transfer`. */
const payoutTransaction = (record: DepositRecord, target: Target) =>
  target.token === zeroAddress
    ? { to: record.account, data: '0x' as Hex, value: BigInt(target.amount) }
    : {
        to: target.token,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [record.account, BigInt(target.amount)],
        }),
      }

/**
 * Sends the payout, or finds the one a previous run recorded: the signed transaction is recorded
 * before it is broadcast, so a crash from then on leaves this one transaction to find.
 */
async function sendPayout(
  context: DepositContext,
  chain: DepositChain,
  record: DepositRecord,
  target: Target,
) {
  const { store } = context
  const found = await findPayout(chain, record)
  if (found) return found
  const recordSigned = (signed: { hash: Hash; serialized: Hex }) => {
    store.update(record, { bridgeTransactionHash: signed.hash, bridgeRawTransaction: signed.serialized })
    store.save()
  }
  const hash = await chain.send(payoutTransaction(record, target), { beforeBroadcast: recordSigned })
  // A sender that did not call beforeBroadcast: record the hash now.
  if (record.bridgeTransactionHash !== hash) {
    delete record.bridgeRawTransaction
    store.update(record, { bridgeTransactionHash: hash })
    store.save()
  }
  return chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: RECEIPT_POLL_MS })
}

/**
 * Pays out one accepted deposit: the relayer sends the target token to the account on the target
 * chain (`bridge-started`, then `bridge-complete`, or `bridge-failed` with BRIDGE-1). A deposit
 * is paid at most once, across crashes (see {@link findPayout}).
 */
export async function payOut(context: DepositContext, record: DepositRecord): Promise<void> {
  const { store } = context
  if (!record.target) {
    const planned = await planTarget(context, record)
    if (!planned) return store.save()
    store.update(record, { target: planned })
  }
  const target = record.target!
  const chain = context.chains.get(target.chainId)!
  const targetData = (): DepositEventData['bridge-started'] => ({
    target: {
      chain: `eip155:${target.chainId}`,
      token: target.token,
      symbol: target.symbol,
      amount: target.amount,
      fees: target.fees,
      ...(record.bridgeTransactionHash ? { transactionHash: record.bridgeTransactionHash } : {}),
    },
  })
  emitDepositEvent(context, record, 'bridge-started', targetData())
  store.save()
  const failure = await sendPayout(context, chain, record, target).then(
    (receipt) =>
      receipt.status === 'success' ? undefined : `Payout transaction ${receipt.transactionHash} reverted.`,
    (error: Error) => error.message.split('\n')[0] ?? 'no reason given',
  )
  if (failure === undefined) {
    store.update(record, { status: 'completed' })
    emitDepositEvent(context, record, 'bridge-complete', targetData())
  } else
    failDeposit(
      context,
      record,
      'failed',
      BRIDGE_ERROR_CODE,
      `The payout on chain ${target.chainId} failed: ${failure}`,
    )
  store.save()
}
