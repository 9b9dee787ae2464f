import type { Hex } from 'viem'
import type { ChainSender } from '../devnet/chainSender'
import type { IntentStore } from '../intents/intentStore'
import type { SignedIntent, SimulationResult } from '../intents/types'
import { approveFiller } from './approveFiller'
import { expireOverdue } from './expireOverdue'
import { reconcileWithChains } from './reconcileWithChains'
import { resumeInFlight } from './resumeInFlight'
import { settleIntent } from './settleIntent'
import { simulateSettlement } from './simulateSettlement'
import type { SettlementContext, SettlementDevnet, SettlementPayload } from './types'

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
  /**
   * Whether the relayer claims on the origins once it filled (default: always); the composition
   * root may decorate it (simulator/faultInjection/intents.ts, claimAfterFill).
   */
  claimAfterFill?: (() => boolean) | undefined
}

/** The relayer: fills on the destination, claims on the origins, and moves the lifecycle. */
export type Settlement = {
  /**
   * Approves the filler for the relayer's tokens, rewinds intents whose transactions the loaded
   * chains lack, resumes intents in flight, starts the expiry check.
   */
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

/**
 * Creates the relayer: composes the settlement actions and runs them, one task per intent in
 * the background. Every status change goes through the intent store's `apply`, i.e. the one
 * lifecycle state machine (simulator/intents/lifecycle.ts). The relayer attests fills across
 * chains (docs/settlement.md, "Trust model"): it claims only after its fill is mined.
 *
 * @example
 * const settlement = createSettlement({ devnet, store, senders })
 * await settlement.start()
 * settlement.settle(record.id)
 */
export function createSettlement(parameters: CreateSettlementParameters): Settlement {
  const { devnet, store, senders, pickupDelayMs = 0, expiryCheckMs = 250 } = parameters
  const log = parameters.log ?? (() => {})
  const context: SettlementContext = {
    devnet,
    store,
    senders,
    log,
    claimAfterFill: parameters.claimAfterFill ?? (() => true),
    fillCommitted: new Set<string>(),
    domainSeparators: new Map<number, Promise<Hex>>(),
  }
  const running = new Map<string, Promise<void>>()
  let timer: ReturnType<typeof setInterval> | undefined
  let stopped = false
  let onStop: () => void = () => {}
  const stopSignal = new Promise<void>((resolve) => {
    onStop = resolve
  })

  async function run(id: string) {
    if (pickupDelayMs > 0 && store.get(id)?.status === 'PENDING')
      await Promise.race([new Promise((resolve) => setTimeout(resolve, pickupDelayMs)), stopSignal])
    // Stopped (a shutdown, or a crash in a test): leave the intent as it is for the next start.
    if (stopped) return
    await settleIntent(context, { id })
  }

  function settle(id: string) {
    if (running.has(id) || stopped) return
    const task = run(id).finally(() => running.delete(id))
    running.set(id, task)
  }

  return {
    async start() {
      await approveFiller(context)
      // Only when the chains may lag the store: checking every intent's transactions otherwise
      // costs start-up time for nothing.
      if (devnet.chainsMayLag?.() ?? true) await reconcileWithChains(context)
      await resumeInFlight(context, { settle })
      timer = setInterval(() => {
        expireOverdue(context).catch((error) => log(`expiry check: ${String(error)}`))
      }, expiryCheckMs)
      timer.unref?.()
    },
    settle,
    simulate: (signed) => simulateSettlement(context, signed),
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
