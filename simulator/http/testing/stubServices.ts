import { createEventBus } from '../../events/eventBus'
import { createSystemClock } from '../../util/clock'
import type { HttpServices } from '../domainServices'
import { ApiError } from '../errorCodes'

/** The status a stub service answers with: a request that gets it passed every check before its service. */
export const REACHED = 422

/** The error every stub method throws: names the method the request reached. */
const reached = (name: string) => async (): Promise<never> => {
  throw new ApiError('UNPROCESSABLE_CONTENT', `Test stub: ${name} was reached.`, { data: { stub: name } })
}

/**
 * Every service the HTTP app needs, as stubs that answer {@link REACHED} naming the method
 * called, with `overrides` in their place. HTTP tests use it to check the layers before a
 * service (auth, versioning, validation, limits) without chains.
 *
 * @example
 * const app = await buildApp({ apiKeys: ['k'] }, stubServices({ quoting }))
 */
export function stubServices(overrides: Partial<HttpServices> = {}): HttpServices {
  return {
    clock: createSystemClock(),
    devnet: {
      manifest: () => {
        throw new ApiError('UNPROCESSABLE_CONTENT', 'Test stub: devnet.manifest was reached.')
      },
      advanceClock: reached('devnet.advanceClock'),
      snapshot: reached('devnet.snapshot'),
      revert: reached('devnet.revert'),
      health: async () => ({ chains: [] }),
    },
    quoting: {
      quoteBest: reached('quoting.quoteBest'),
      quoteEvery: reached('quoting.quoteEvery'),
      resetQuotes: reached('quoting.resetQuotes'),
      portfolio: reached('quoting.portfolio'),
    },
    intents: {
      submitOperation: reached('intents.submitOperation'),
      simulateOperation: reached('intents.simulateOperation'),
      submitQuoted: reached('intents.submitQuoted'),
      simulateQuoted: reached('intents.simulateQuoted'),
      getIntent: reached('intents.getIntent'),
      findIntent: reached('intents.findIntent'),
    },
    withdrawals: {
      withdraw: reached('withdrawals.withdraw'),
      batchWithdraw: reached('withdrawals.batchWithdraw'),
    },
    depositProcessor: {
      setup: reached('depositProcessor.setup'),
      getSetup: reached('depositProcessor.getSetup'),
      register: reached('depositProcessor.register'),
      listDeposits: reached('depositProcessor.listDeposits'),
      getDeposit: reached('depositProcessor.getDeposit'),
      listWebhookEvents: reached('depositProcessor.listWebhookEvents'),
      resendWebhookEvent: reached('depositProcessor.resendWebhookEvent'),
      resendFailedWebhookEvents: reached('depositProcessor.resendFailedWebhookEvents'),
      sendTestEvent: reached('depositProcessor.sendTestEvent'),
    },
    prices: { setPrices: reached('prices.setPrices') },
    explorer: {
      listIntents: reached('explorer.listIntents'),
      getIntent: reached('explorer.getIntent'),
      listQuotes: reached('explorer.listQuotes'),
      chains: reached('explorer.chains'),
      getTransaction: reached('explorer.getTransaction'),
    },
    events: createEventBus(),
    faults: {
      state: () => {
        throw new ApiError('UNPROCESSABLE_CONTENT', 'Test stub: faults.state was reached.')
      },
      change: () => {
        throw new ApiError('UNPROCESSABLE_CONTENT', 'Test stub: faults.change was reached.')
      },
    },
    ...overrides,
  }
}
