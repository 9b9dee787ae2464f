import {
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hash,
  type Hex,
  maxUint256,
  type SignedAuthorizationList,
} from 'viem'
import { addresses, tokensByChain } from '../../contracts/addresses'
import { TheCompact } from '../../contracts/generated/artifacts'
import type { DevnetChain } from '../devnet/chain'
import type { ChainSender, RelayerTransaction } from '../devnet/chainSender'
import type { DevKeys } from '../devnet/keys'
import type { Faults } from '../faults/faults'
import { mandateOf } from '../intents/intentOp'
import type { IntentRecord, IntentStore } from '../intents/intentStore'
import type { SignedIntent, SimulatedStep, SimulationResult } from '../intents/types'
import { BaseError } from '../util/BaseError'
import {
  allocatorDigest,
  compactClaimArg,
  compactHashes,
  fillArgs,
  fillValue,
  fundingMethodOf,
  hasDestinationOps,
  permit2ClaimArg,
} from './contractArgs'
import { arbiterAbi, describeRevert, fillerAbi, isTransient, revertErrorName } from './describeRevert'

/** What the settlement needs of the devnet: its chains, the relayer and allocator keys, the clock. */
export type SettlementDevnet = {
  chain(chainId: number): DevnetChain
  readonly chains: readonly DevnetChain[]
  keys: Pick<DevKeys, 'relayer' | 'allocator'>
  /** Devnet clock, unix seconds (advancing it counts for fill deadlines). */
  now(): number
}

/** The intent store's payload: what the settlement needs to settle an intent. */
export type SettlementPayload = SignedIntent

/** Parameters of {@link createSettlement}. */
export type CreateSettlementParameters = {
  devnet: SettlementDevnet
  store: IntentStore<SettlementPayload>
  /** The relayer waits this long before taking up a new intent (a slow relayer; default 0). */
  pickupDelayMs?: number | undefined
  /** How often PENDING intents are checked against their fill deadline (default 250 ms). */
  expiryCheckMs?: number | undefined
  log?: ((line: string) => void) | undefined
  /**
   * The relayer's senders, one per chain, when other parts of the service send as the relayer
   * too (the deposit processor's payouts): sharing them keeps the relayer's nonces in one queue.
   */
  senders: ReadonlyMap<number, ChainSender>
  /** Injected faults (`intents.skip-claims`). */
  faults: Pick<Faults, 'has'>
}

/** The relayer: fills on the destination, claims on the origins, and moves the lifecycle. */
export type Settlement = {
  /** Approves the filler for the relayer's tokens, resumes intents in flight, starts the expiry check. */
  start(): Promise<void>
  /** Starts settling an accepted (PENDING) intent in the background. */
  settle(id: string): void
  /** eth_call / eth_estimateGas of every step, nothing sent. */
  simulate(signed: SignedIntent): Promise<SimulationResult>
  /** Resolves when no intent is being settled. */
  idle(): Promise<void>
  /** Stops the expiry check and waits for settlements in progress. */
  stop(): Promise<void>
}

export class SettlementStepError extends BaseError {
  override name = 'Settlement.StepError'
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Creates the relayer. Every status change goes through the intent store's `apply`, i.e. the one
 * lifecycle state machine (simulator/intents/lifecycle.ts). The relayer attests fills across
 * chains (docs/settlement.md, "Trust model"): it claims only after its fill is mined.
 *
 * @example
 * const settlement = createSettlement({ devnet, store, senders, faults })
 * await settlement.start()
 * settlement.settle(record.id)
 */
export function createSettlement(parameters: CreateSettlementParameters): Settlement {
  const { devnet, store, pickupDelayMs = 0, expiryCheckMs = 250 } = parameters
  const log = parameters.log ?? (() => {})
  const { senders } = parameters
  const running = new Map<string, Promise<void>>()
  /** Intents whose fill was handed to the sender: the expiry check leaves them alone. */
  const fillCommitted = new Set<string>()
  const domainSeparators = new Map<number, Promise<Hex>>()
  let timer: ReturnType<typeof setInterval> | undefined
  let stopped = false
  let onStop: () => void = () => {}
  const stopSignal = new Promise<void>((resolve) => {
    onStop = resolve
  })

  const senderOf = (chainId: number) => {
    const sender = senders.get(chainId)
    if (!sender) throw new SettlementStepError(`No relayer sender for chain ${chainId}.`)
    return sender
  }
  const relayer = devnet.keys.relayer.account

  function compactDomainSeparator(chainId: number): Promise<Hex> {
    let separator = domainSeparators.get(chainId)
    if (!separator) {
      separator = devnet.chain(chainId).publicClient.readContract({
        address: addresses.compact,
        abi: TheCompact.abi,
        functionName: 'DOMAIN_SEPARATOR',
      })
      domainSeparators.set(chainId, separator)
      separator.catch(() => domainSeparators.delete(chainId))
    }
    return separator
  }

  /** Retries what failed for want of a node (not a revert) a few times. */
  async function withRetry<T>(what: string, fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn()
      } catch (error) {
        if (!isTransient(error) || attempt >= 4) throw error
        log(`${what}: ${describeRevert(error)}; retry ${attempt}`)
        await sleep(100 * 2 ** attempt)
      }
    }
  }

  /** The EIP-7702 authorizations of the intent for one chain (chain id 0 = any chain). */
  async function authorizationsFor(
    signed: SignedIntent,
    chainId: number,
  ): Promise<SignedAuthorizationList | undefined> {
    const list = (signed.intentOp.signedAuthorizations ?? []).filter(
      (a) => a.chainId === chainId || a.chainId === 0,
    )
    if (list.length === 0) return undefined
    const code = await devnet
      .chain(chainId)
      .publicClient.getCode({ address: getAddress(signed.intentOp.sponsor) })
    const pending = list.filter((a) => code?.toLowerCase() !== `0xef0100${a.address.slice(2)}`.toLowerCase())
    if (pending.length === 0) return undefined
    return pending.map((a) => ({
      address: getAddress(a.address),
      chainId: a.chainId,
      nonce: Number(a.nonce),
      r: a.r as Hex,
      s: a.s as Hex,
      yParity: a.yParity,
    }))
  }

  /** The account's setup calls, when it has no code on the chain yet and the step needs it. */
  async function setupCalls(signed: SignedIntent, chainId: number): Promise<RelayerTransaction[]> {
    if (signed.setupOps.length === 0) return []
    const code = await devnet
      .chain(chainId)
      .publicClient.getCode({ address: getAddress(signed.intentOp.sponsor) })
    if (code && code !== '0x') return []
    return signed.setupOps.map((op) => ({ to: getAddress(op.to), data: op.data }))
  }

  async function sendAndWait(chainId: number, tx: RelayerTransaction) {
    const sender = senderOf(chainId)
    const hash = await withRetry(`send on ${chainId}`, () => sender.send(tx))
    return { hash, receipt: await sender.waitForReceipt(hash) }
  }

  async function applySetup(signed: SignedIntent, chainId: number) {
    for (const tx of await setupCalls(signed, chainId)) {
      const { hash, receipt } = await sendAndWait(chainId, tx)
      if (receipt.status !== 'success')
        throw new SettlementStepError(`The account's setup call ${hash} reverted on chain ${chainId}.`)
    }
  }

  function fillRequest(signed: SignedIntent) {
    return {
      account: relayer,
      address: addresses.filler,
      abi: fillerAbi,
      functionName: 'fill',
      args: fillArgs(signed),
      value: fillValue(signed.intentOp),
    } as const
  }

  /** The claim of element `index`: its calldata, and an eth_call of it that decodes a revert. */
  async function claimCall(signed: SignedIntent, index: number) {
    const element = signed.intentOp.elements[index]!
    const chainId = Number(element.chainId)
    const { publicClient } = devnet.chain(chainId)
    if (fundingMethodOf(element) === 'COMPACT') {
      const { claimHash } = compactHashes(signed.intentOp)
      const allocatorData = await devnet.keys.allocator.account.sign({
        hash: allocatorDigest(await compactDomainSeparator(chainId), claimHash),
      })
      const call = {
        account: relayer,
        address: addresses.arbiter,
        abi: arbiterAbi,
        functionName: 'claimCompact',
        args: [compactClaimArg(signed, index, allocatorData)],
      } as const
      return {
        data: encodeFunctionData(call),
        simulate: async () => void (await publicClient.simulateContract(call)),
      }
    }
    const call = {
      account: relayer,
      address: addresses.arbiter,
      abi: arbiterAbi,
      functionName: 'claimPermit2',
      args: [permit2ClaimArg(signed, index)],
    } as const
    return {
      data: encodeFunctionData(call),
      simulate: async () => void (await publicClient.simulateContract(call)),
    }
  }

  async function fillIdOf(signed: SignedIntent): Promise<Hex> {
    const [sponsor, nonce, target] = fillArgs(signed)
    return devnet.chain(Number(mandateOf(signed.intentOp).destinationChainId)).publicClient.readContract({
      address: addresses.filler,
      abi: fillerAbi,
      functionName: 'getFillId',
      args: [sponsor, nonce, target],
    })
  }

  /** The mined fill of `fillId` on the destination, if any (for resuming after a restart). */
  async function findFill(destinationChainId: number, fillId: Hex) {
    const { publicClient } = devnet.chain(destinationChainId)
    const logs = await publicClient.getContractEvents({
      address: addresses.filler,
      abi: fillerAbi,
      eventName: 'Filled',
      args: { fillId },
      fromBlock: 0n,
    })
    const found = logs[0]
    if (!found?.transactionHash || found.blockNumber === null) return undefined
    const block = await publicClient.getBlock({ blockNumber: found.blockNumber })
    return { hash: found.transactionHash, timestamp: Number(block.timestamp) }
  }

  /** The mined claim of `fillId` on an origin chain, if any. */
  async function findClaim(chainId: number, fillId: Hex) {
    const { publicClient } = devnet.chain(chainId)
    const logs = await publicClient.getContractEvents({
      address: addresses.arbiter,
      abi: arbiterAbi,
      eventName: 'Claimed',
      args: { fillId },
      fromBlock: 0n,
    })
    const found = logs[0]
    if (!found?.transactionHash || found.blockNumber === null) return undefined
    const block = await publicClient.getBlock({ blockNumber: found.blockNumber })
    return { hash: found.transactionHash, timestamp: Number(block.timestamp) }
  }

  async function blockTimestamp(chainId: number, hash: Hash): Promise<number> {
    const { publicClient } = devnet.chain(chainId)
    const receipt = await publicClient.getTransactionReceipt({ hash })
    return Number((await publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp)
  }

  const current = (id: string): IntentRecord<SettlementPayload> => {
    const record = store.get(id)
    if (!record) throw new SettlementStepError(`No intent with id ${id}.`)
    return record
  }

  async function fail(id: string, step: 'fill' | 'claim' | 'resume', reason: string) {
    const record = current(id)
    if (record.status === 'COMPLETED' || record.status === 'FAILED' || record.status === 'EXPIRED') return
    log(`intent ${id}: FAILED at ${step}: ${reason}`)
    await store.apply(id, { type: 'failed', step, reason })
  }

  async function runFill(id: string) {
    const record = current(id)
    const signed = record.payload
    const destination = record.destinationChainId
    const fillId = await withRetry('fill id', () => fillIdOf(signed))

    if (record.status === 'PRECONFIRMED' && record.fill.txHash) {
      // Sent before a restart: the receipt (or the chain's record of the fill) says what happened.
      const receipt = await devnet
        .chain(destination)
        .publicClient.getTransactionReceipt({ hash: record.fill.txHash })
        .catch(() => undefined)
      if (receipt?.status === 'success') {
        await store.apply(id, {
          type: 'fillMined',
          txHash: record.fill.txHash,
          timestamp: await blockTimestamp(destination, record.fill.txHash),
        })
        return
      }
    }
    const already = await withRetry('find fill', () => findFill(destination, fillId))
    if (already) {
      await store.apply(id, { type: 'fillMined', txHash: already.hash, timestamp: already.timestamp })
      return
    }

    if (current(id).status === 'PENDING' && devnet.now() > record.fillDeadline) {
      await store.apply(id, { type: 'expired' })
      return
    }
    await applySetup(signed, destination)
    const request = fillRequest(signed)
    const { publicClient } = devnet.chain(destination)
    const authorizationList = await authorizationsFor(signed, destination)
    if (!authorizationList) {
      try {
        await withRetry('simulate fill', () => publicClient.simulateContract(request))
      } catch (error) {
        if (revertErrorName(error) === 'FillExpired' && current(id).status === 'PENDING') {
          await store.apply(id, { type: 'expired' })
          return
        }
        throw new SettlementStepError(describeRevert(error), { cause: error })
      }
    }
    // The expiry check must not expire an intent whose fill is on its way: decide, then commit.
    const latest = current(id)
    if (latest.status !== 'PENDING' && latest.status !== 'PRECONFIRMED') return
    fillCommitted.add(id)
    const sender = senderOf(destination)
    const hash = await withRetry('send fill', () =>
      sender.send({
        to: addresses.filler,
        data: encodeFunctionData({ abi: fillerAbi, functionName: 'fill', args: request.args }),
        value: request.value,
        authorizationList,
      }),
    )
    if (current(id).status === 'PENDING') await store.apply(id, { type: 'fillSent', txHash: hash })
    const receipt = await sender.waitForReceipt(hash)
    if (receipt.status !== 'success') throw new SettlementStepError(`The fill transaction ${hash} reverted.`)
    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber })
    await store.apply(id, { type: 'fillMined', txHash: hash, timestamp: Number(block.timestamp) })
  }

  async function runClaim(id: string, index: number, fillId: Hex) {
    const record = current(id)
    const signed = record.payload
    const chainId = Number(signed.intentOp.elements[index]!.chainId)
    const claim = record.claims.find((c) => c.chainId === chainId)
    if (!claim || claim.status === 'COMPLETED') return
    const { publicClient } = devnet.chain(chainId)
    if (claim.txHash) {
      const receipt = await publicClient.getTransactionReceipt({ hash: claim.txHash }).catch(() => undefined)
      if (receipt?.status === 'success') {
        await store.apply(id, {
          type: 'claimMined',
          chainId,
          txHash: claim.txHash,
          timestamp: await blockTimestamp(chainId, claim.txHash),
        })
        return
      }
    }
    const already = await withRetry('find claim', () => findClaim(chainId, fillId))
    if (already) {
      await store.apply(id, {
        type: 'claimMined',
        chainId,
        txHash: already.hash,
        timestamp: already.timestamp,
      })
      return
    }
    await applySetup(signed, chainId)
    const call = await claimCall(signed, index)
    const authorizationList = await authorizationsFor(signed, chainId)
    if (!authorizationList)
      await withRetry('simulate claim', call.simulate).catch((error) => {
        throw new SettlementStepError(`claim on chain ${chainId}: ${describeRevert(error)}`, { cause: error })
      })
    const sender = senderOf(chainId)
    const hash = await withRetry('send claim', () =>
      sender.send({
        to: addresses.arbiter,
        data: call.data,
        authorizationList,
      }),
    )
    await store.apply(id, { type: 'claimSent', chainId, txHash: hash })
    const receipt = await sender.waitForReceipt(hash)
    if (receipt.status !== 'success')
      throw new SettlementStepError(`claim on chain ${chainId}: the transaction ${hash} reverted.`)
    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber })
    await store.apply(id, { type: 'claimMined', chainId, txHash: hash, timestamp: Number(block.timestamp) })
  }

  async function run(id: string) {
    let step: 'fill' | 'claim' = 'fill'
    try {
      if (pickupDelayMs > 0 && current(id).status === 'PENDING')
        await Promise.race([sleep(pickupDelayMs), stopSignal])
      // Stopped (a shutdown, or a crash in a test): leave the intent as it is for the next start.
      if (stopped) return
      let record = current(id)
      if (record.status === 'PENDING' || record.status === 'PRECONFIRMED') await runFill(id)
      record = current(id)
      if (record.status !== 'FILLED') return
      step = 'claim'
      // Fault: fill but never claim, so the intent stays FILLED.
      if (parameters.faults.has('intents.skip-claims')) return
      const fillId = await withRetry('fill id', () => fillIdOf(record.payload))
      const results = await Promise.allSettled(
        record.payload.intentOp.elements.map((_, i) => runClaim(id, i, fillId)),
      )
      const failed = results.find((r) => r.status === 'rejected')
      if (failed) throw failed.reason
    } catch (error) {
      const reason = error instanceof BaseError ? error.shortMessage : describeRevert(error)
      await fail(id, step, reason).catch((e) =>
        log(`intent ${id}: could not record the failure: ${String(e)}`),
      )
    } finally {
      fillCommitted.delete(id)
    }
  }

  function settle(id: string) {
    if (running.has(id) || stopped) return
    const task = run(id).finally(() => running.delete(id))
    running.set(id, task)
  }

  async function checkExpiry() {
    const now = devnet.now()
    for (const record of store.inFlight()) {
      if (record.status !== 'PENDING' || fillCommitted.has(record.id) || now <= record.fillDeadline) continue
      await store.apply(record.id, { type: 'expired' }).catch(() => undefined)
    }
  }

  async function ensureApprovals() {
    await Promise.all(
      devnet.chains.map(async (chain) => {
        for (const token of tokensByChain[chain.chainId] ?? []) {
          const allowance = await chain.publicClient
            .readContract({
              address: token.address,
              abi: erc20Abi,
              functionName: 'allowance',
              args: [relayer.address, addresses.filler],
            })
            .catch(() => undefined)
          if (allowance === undefined || allowance > maxUint256 / 2n) continue
          const { hash, receipt } = await sendAndWait(chain.chainId, {
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

  async function simulate(signed: SignedIntent): Promise<SimulationResult> {
    const steps: SimulatedStep[] = []
    const destination = Number(mandateOf(signed.intentOp).destinationChainId)
    const attempt = async (step: SimulatedStep['step'], chainId: number, fn: () => Promise<bigint>) => {
      try {
        steps.push({ step, chainId, ok: true, gas: (await fn()).toString() })
      } catch (error) {
        steps.push({ step, chainId, ok: false, error: describeRevert(error) })
      }
    }
    const { publicClient } = devnet.chain(destination)
    const setup = hasDestinationOps(signed.intentOp) ? await setupCalls(signed, destination) : []
    for (const tx of setup)
      await attempt('setup', destination, () =>
        publicClient.estimateGas({ account: relayer, to: tx.to, data: tx.data }),
      )
    if (setup.length > 0)
      steps.push({
        step: 'fill',
        chainId: destination,
        ok: true,
        error: 'not simulated: the account is deployed by its setup calls first',
      })
    else
      await attempt('fill', destination, async () => {
        const request = fillRequest(signed)
        const authorizationList = await authorizationsFor(signed, destination)
        if (!authorizationList) await publicClient.simulateContract(request)
        return publicClient.estimateGas({
          account: relayer,
          to: addresses.filler,
          data: encodeFunctionData({ abi: fillerAbi, functionName: 'fill', args: request.args }),
          value: request.value,
          ...(authorizationList ? { authorizationList } : {}),
        })
      })
    await Promise.all(
      signed.intentOp.elements.map((element, index) =>
        attempt('claim', Number(element.chainId), async () => {
          const call = await claimCall(signed, index)
          await call.simulate()
          const client = devnet.chain(Number(element.chainId)).publicClient
          return client.estimateGas({ account: relayer, to: addresses.arbiter, data: call.data })
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

  return {
    async start() {
      await ensureApprovals()
      for (const record of store.inFlight()) {
        // A target that is not the fill's destination any more (chains changed) cannot resume.
        const known = new Set(devnet.chains.map((c) => c.chainId))
        const chainIds = [record.destinationChainId, ...record.claims.map((c) => c.chainId)]
        const missing = chainIds.find((c) => !known.has(c))
        if (missing !== undefined) {
          await fail(record.id, 'resume', `chain ${missing} is not running on this devnet`)
          continue
        }
        settle(record.id)
      }
      timer = setInterval(() => {
        checkExpiry().catch((error) => log(`expiry check: ${String(error)}`))
      }, expiryCheckMs)
      timer.unref?.()
    },
    settle,
    simulate,
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running.values()])
    },
    async stop() {
      stopped = true
      onStop()
      if (timer) clearInterval(timer)
      await Promise.allSettled([...running.values()])
      await store.flush()
    },
  }
}
