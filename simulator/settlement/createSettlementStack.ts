import type { Devnet } from '../devnet/startDevnet'
import type { Faults } from '../faults'
import { createIntentService } from '../intents/intentService'
import { createIntentStore } from '../intents/intentStore'
import type { QuoteStore } from '../intents/quoteStore'
import type { StoredQuotedIntent } from '../quoting/types'
import type { ChainSender } from './chainSender'
import { createSettlement, type SettlementPayload } from './createSettlement'

/** Parameters of {@link createSettlementStack}. */
export type CreateSettlementStackParameters = {
  devnet: Devnet
  stateDir?: string | undefined
  pickupDelayMs?: number | undefined
  quotes?: QuoteStore<StoredQuotedIntent> | undefined
  /** The relayer's per-chain senders, shared with the deposit processor. */
  senders?: Map<number, ChainSender> | undefined
  log?: ((line: string) => void) | undefined
  faults?: Faults | undefined
}

/**
 * The intent store, the relayer and the intent service on a running devnet: what `up` wires
 * (`startSimulator`) and what the tests use. Call `start()` (loads the store, approves, resumes) before use.
 */
export async function createSettlementStack(parameters: CreateSettlementStackParameters) {
  const { devnet } = parameters
  const store = createIntentStore<SettlementPayload>({
    stateDir: parameters.stateDir,
    now: () => devnet.now(),
  })
  await store.load()
  const settlement = createSettlement({
    devnet,
    store,
    pickupDelayMs: parameters.pickupDelayMs,
    senders: parameters.senders,
    log: parameters.log,
    faults: parameters.faults,
  })
  await settlement.start()
  const service = createIntentService({
    devnet,
    store,
    settlement,
    serverAddress: devnet.keys.server.address,
    quotes: parameters.quotes,
    faults: parameters.faults,
  })
  return { store, settlement, service, stop: () => settlement.stop() }
}
