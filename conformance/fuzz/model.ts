import type { HttpStep, Step } from '../scenario/schema'
import type { PropertyName } from './properties'
import type { FuzzVersion } from './routes'

/**
 * The model of the stateful phase (the quotes of a sequence, the intent in flight, what the
 * fresh recipient received) and the scenario steps its commands share (commands.ts).
 */

/** A step with the property it checks and the route it calls. */
export type TaggedStep = { step: Step; property: PropertyName; route: string }

/**
 * How a resource's statuses may move: a status never goes to a lower rank, and a final one
 * never changes. `pointer` is where a read of the resource keeps its status.
 */
export type StatusOrder = {
  pointer: string
  rank: Readonly<Record<string, number>>
  final: ReadonlySet<string>
  /** The property the poll's last read (with its expectations) checks. */
  settledProperty: PropertyName
}

/** What a command does to the target, as steps; the executor (stateful.ts) runs them. */
export type Executor = {
  run: (steps: TaggedStep[]) => Promise<void>
  /**
   * Polls a resource (an intent, a deposit) until its status is final, checking that it only
   * moves forward, then runs the poll step itself (its expectations) once more.
   */
  pollForward: (poll: TaggedStep, order: StatusOrder) => Promise<void>
  /** A variable of the sequence as captured so far (a quote's answer, to build the next steps from). */
  read: (name: string) => unknown
}

/** A quote of the model, by number: its variables are `q<n>_…` (or `<prefix>_…`). */
export type QuoteRef = {
  n: number
  /** Its variables' prefix (default `q<n>`): the sender's own quotes are `s<n>_…` (senderCommand.ts). */
  prefix?: string | undefined
  /** Who signs it (default funded account 0): a funded account's index or a `${…privateKey}`. */
  signer?: number | string | undefined
  version: FuzzVersion
  chainId: number
  amount: string
  submitted: boolean
  /** Polled to its end. */
  settled: boolean
  expired: boolean
}

/** The model: the quotes of the run, the one intent in flight, what the fresh recipient received. */
export type Model = {
  quotes: QuoteRef[]
  inFlight: QuoteRef | undefined
  /** Raw USDC units received by the run's fresh recipient, per chain. */
  received: Record<number, bigint>
  /** The sender's own quotes of the sequence, sent and settled (senderCommand.ts). */
  sent: number
  /** The deposits of the sequence to its registered account (`fresh.2`). */
  deposits: {
    /** The chain the account is registered to be paid on (after the first deposit command). */
    targetChainId: number | undefined
    count: number
    /** Raw USDC units paid out to the account on the target chain, all sponsored: the sum deposited. */
    paid: bigint
  }
}

/** A model with nothing done yet. */
export const emptyModel = (): Model => ({
  quotes: [],
  inFlight: undefined,
  received: {},
  sent: 0,
  deposits: { targetChainId: undefined, count: 0, paid: 0n },
})

/** What the commands may use of the target. */
export type StatefulSpace = {
  /**
   * Per chain with USDC, where the sender's own quotes (senderCommand.ts) find the contracts:
   * Permit2 and The Compact (the manifest's, else their canonical addresses), and the lock tag
   * of the service's allocator (the manifest's `allocator`; without one, no lock is funded or read).
   */
  contracts?:
    | Readonly<Record<number, { permit2: string; compact: string; lockTag: string | undefined }>>
    | undefined
  versions: readonly FuzzVersion[]
  /** Chains with a USDC the target quotes (`tokens.<chainId>.USDC`). */
  chainIds: readonly number[]
  /** The control API is there (the clock can be advanced). */
  clock: boolean
  withdrawals: boolean
  /**
   * Deposits can be driven: the target serves the deposit processor's setup, register and
   * deposit list, there are two chains with USDC, and the run's webhook receiver reaches it.
   */
  deposits: boolean
}

/** `${name}`: a variable of the scenario, read when the step runs. */
export const variable = (name: string) => `$\{${name}}`
/** The name of a quote's variable (`q1_intentId`). */
export const v = (quote: QuoteRef, name: string) => `${quote.prefix ?? `q${quote.n}`}_${name}`
/** `${q<n>_name}`: a quote's variable, read when the step runs. */
export const ref = (quote: QuoteRef, name: string) => variable(v(quote, name))

/** The steps that sign a quote (alps: the intentOp, built by the client; blanc: signData as given). */
export function signSteps(quote: QuoteRef): TaggedStep[] {
  const tag = (step: Step): TaggedStep => ({ step, property: 'response-schema', route: 'quote' })
  if (quote.version === 'alps')
    return [
      tag({
        name: `sign quote ${quote.n}'s intentOp as the client`,
        signIntentOp: { intentOp: ref(quote, 'intentOp'), account: quote.signer ?? 0 },
        captureAs: v(quote, 'signed'),
      }),
    ]
  return [
    tag({
      name: `sign quote ${quote.n}'s origin typed data`,
      sign: { typedData: ref(quote, 'origin'), account: quote.signer ?? 0 },
      captureAs: v(quote, 'originSignatures'),
    }),
    tag({
      name: `sign quote ${quote.n}'s destination typed data`,
      sign: { typedData: ref(quote, 'destination'), account: quote.signer ?? 0 },
      captureAs: v(quote, 'destinationSignature'),
    }),
  ]
}

/** The submit request of a quote, with the expectation given. */
export function submitStep(
  quote: QuoteRef,
  name: string,
  expect: HttpStep['expect'],
  capture?: Record<string, string>,
): HttpStep {
  const http: HttpStep['http'] =
    quote.version === 'alps'
      ? {
          method: 'POST',
          path: '/intent-operations',
          apiKey: 'default',
          version: 'alps',
          body: { signedIntentOp: ref(quote, 'signed') },
        }
      : {
          method: 'POST',
          path: `/intents/${ref(quote, 'intentId')}/submit`,
          apiKey: 'default',
          version: 'blanc',
          body: {
            signatures: {
              origin: ref(quote, 'originSignatures'),
              destination: ref(quote, 'destinationSignature'),
            },
          },
        }
  return { name, http, expect, ...(capture && { capture }) }
}

/** The route a quote's submit calls: alps submitOperation, blanc submitQuoted. */
export const submitRoute = (quote: QuoteRef) =>
  quote.version === 'alps' ? 'submitOperation' : 'submitQuoted'
