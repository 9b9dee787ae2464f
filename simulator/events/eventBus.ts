import type { DepositStepEvent, IntentStepEvent, WebhookDeliveryEvent } from '../events/schemas'

/**
 * What the domain publishes: an intent's lifecycle step, a deposit's step, a webhook delivery
 * attempt. Deposit and webhook events carry the tenant they belong to (the digest of its API key,
 * never the key), so a subscriber shows a tenant only its own.
 */
export type DomainEvent =
  | IntentStepEvent
  | (DepositStepEvent & { tenant: string })
  | (WebhookDeliveryEvent & { tenant: string })

/** A published event with its sequence number (1, 2, …: the order of publication). */
export type PublishedEvent = DomainEvent & { seq: number }

/** Called with every event published after it subscribed (and, with `after`, the recent ones it missed). */
export type EventListener = (event: PublishedEvent) => void

/** Options of {@link EventBus.subscribe}. */
export type SubscribeOptions = {
  /** Replays the kept events whose `seq` is above this one first (a reconnecting client's last seen seq). */
  after?: number | undefined
}

/** A typed publish/subscribe of domain events, in memory, synchronous. */
export type EventBus = {
  /** Publishes one event to every subscriber; a subscriber that throws never reaches the publisher. */
  publish(event: DomainEvent): void
  /** Subscribes; returns the function that unsubscribes. */
  subscribe(listener: EventListener, options?: SubscribeOptions): () => void
  /** The seq of the last event published (0 before the first). */
  readonly lastSeq: number
  /** Subscribers right now. */
  readonly subscribers: number
}

/** Parameters of {@link createEventBus}. */
export type CreateEventBusParameters = {
  /** Recent events kept for replay to a reconnecting subscriber (default 1,000). */
  keep?: number | undefined
  /** Told about a subscriber that threw (default: ignored). */
  onListenerError?: ((error: unknown) => void) | undefined
}

/**
 * Creates the domain event bus: the composition root builds one and hands it to each service
 * that publishes (intent store, deposit processor); the explorer's live feed subscribes. It
 * knows nothing of HTTP. Publishing is synchronous and never throws, so a publish call in the
 * domain cannot change what the domain does.
 *
 * @example
 * const events = createEventBus()
 * const stop = events.subscribe((event) => console.log(event.seq, event.type))
 * events.publish({ type: 'intent', id: '1', intentId: null, step: 'submitted', status: 'PENDING',
 *   chainId: null, transactionHash: null, reason: null, at: 1_700_000_000 })
 * stop()
 */
export function createEventBus(parameters: CreateEventBusParameters = {}): EventBus {
  const keep = parameters.keep ?? 1_000
  const listeners = new Set<EventListener>()
  const recent: PublishedEvent[] = []
  let seq = 0

  function deliver(listener: EventListener, event: PublishedEvent) {
    try {
      listener(event)
    } catch (error) {
      parameters.onListenerError?.(error)
    }
  }

  return {
    publish(event) {
      const published = { ...event, seq: ++seq } as PublishedEvent
      if (keep > 0) {
        recent.push(published)
        if (recent.length > keep) recent.shift()
      }
      for (const listener of [...listeners]) deliver(listener, published)
    },
    subscribe(listener, options = {}) {
      if (options.after !== undefined)
        for (const event of recent) if (event.seq > options.after) deliver(listener, event)
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    get lastSeq() {
      return seq
    },
    get subscribers() {
      return listeners.size
    },
  }
}
