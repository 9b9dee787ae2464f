import type { DepositProcessor } from '../deposits/createDepositProcessor'
import type { DevnetService } from '../devnet/devnetService'
import type { EventBus } from '../events/eventBus'
import type { ExplorerService } from '../explorer/types'
import type { IntentService } from '../intents/types'
import type { PriceService } from '../prices/prices'
import type { QuotingService } from '../quoting/quotingService'
import type { Clock } from '../util/clock'
import type { WithdrawalService } from '../withdrawals/types'

/**
 * The fault switchboard as the control API drives it (`GET`/`POST /_devnet/faults`). The HTTP
 * layer knows no fault: the composition root hands in simulator/faultInjection/http's control.
 */
export type FaultControl = {
  /** The enabled faults, and every fault there is (name → the rule it breaks). */
  state(): { enabled: string[]; known: Readonly<Record<string, string>> }
  /** Clears (when asked), then disables and enables; a name it does not know throws and changes nothing. */
  change(change: { enable: readonly string[]; disable: readonly string[]; clear: boolean }): void
}

/**
 * The services the HTTP app is built from, each defined by its domain folder. Routes reach them
 * through `app.services` (a Fastify decoration), never through module singletons; every one is
 * required, so every route has the service it calls. Domain services throw their own error
 * classes; `errorMapping.ts` turns them into the error-code table's answers.
 */
export type HttpServices = {
  clock: Clock
  devnet: DevnetService
  quoting: QuotingService
  intents: IntentService
  withdrawals: WithdrawalService
  /**
   * The deposit processor: every call names the tenant (the caller's API key, `request.tenant`),
   * so configuration, deposits and events belong to the key, and two keys never see each other's.
   */
  depositProcessor: Pick<
    DepositProcessor,
    | 'setup'
    | 'getSetup'
    | 'register'
    | 'listDeposits'
    | 'getDeposit'
    | 'listWebhookEvents'
    | 'resendWebhookEvent'
    | 'resendFailedWebhookEvents'
    | 'sendTestEvent'
  >
  prices: PriceService
  /** The explorer's read model (`/_devnet/explorer/…`). */
  explorer: ExplorerService
  /** The domain's events, for the live feed (`GET /_devnet/events`). */
  events: Pick<EventBus, 'subscribe' | 'lastSeq'>
  /** The fault switchboard (`/_devnet/faults`). */
  faults: FaultControl
}
