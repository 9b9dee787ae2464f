import type { DepositProcessorService } from '../deposits/types'
import type { DevnetService } from '../devnet/devnetService'
import type { EventBus } from '../events/eventBus'
import type { ExplorerService } from '../explorer/types'
import type { IntentService } from '../intents/types'
import type { PriceService } from '../prices/prices'
import type { QuotingService } from '../quoting/types'
import type { Clock } from '../util/clock'
import type { WithdrawalService } from '../withdrawals/types'

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
   * The deposit processor for one tenant: configuration, deposits and events belong to the API
   * key, and two keys never see each other's.
   */
  depositProcessor: (tenant: string) => DepositProcessorService
  prices: PriceService
  /** The explorer's read model (`/_devnet/explorer/…`). */
  explorer: ExplorerService
  /** The domain's events, for the live feed (`GET /_devnet/events`). */
  events: Pick<EventBus, 'subscribe' | 'lastSeq'>
}
