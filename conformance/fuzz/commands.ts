import fc from 'fast-check'
import type { HttpStep, Step } from '../scenario/schema'
import { depositCommand } from './depositCommands'
import {
  type Executor,
  type Model,
  type QuoteRef,
  ref,
  type StatefulSpace,
  signSteps,
  submitRoute,
  submitStep,
  type TaggedStep,
  v,
  variable,
} from './model'
import type { PropertyName } from './properties'
import { MESSAGE_POINTER } from './properties'
import type { FuzzVersion } from './routes'
import { settleQuote } from './settle'

export type { Executor, Model, QuoteRef, StatefulSpace, StatusOrder, TaggedStep } from './model'
export { emptyModel } from './model'

/**
 * The model of the service the stateful phase drives, and its commands: quote → sign → submit →
 * poll, submit twice, submit after expiry, withdraw, deposit (depositCommands.ts). The sender's
 * own quote, settled and read on both sides, has sequences of its own (senderCommand.ts, stateful.ts). Each command is the scenario steps it runs
 * (real values travel between them as captured `${variables}`), each step tagged with the
 * property it checks, so that the shrunk sequence of a finding is a scenario as it stands.
 */

/** Quote `amount` USDC on `chainId` for funded account 0, delivered to the run's fresh account. */
class QuoteCommand implements fc.AsyncCommand<Model, Executor> {
  constructor(
    readonly version: FuzzVersion,
    readonly chainId: number,
    readonly amount: string,
  ) {}
  check = (m: Readonly<Model>) => m.quotes.length < 4
  async run(m: Model, real: Executor) {
    const quote: QuoteRef = {
      n: m.quotes.length + 1,
      version: this.version,
      chainId: this.chainId,
      amount: this.amount,
      submitted: false,
      settled: false,
      expired: false,
    }
    m.quotes.push(quote)
    const capture: Record<string, string> =
      this.version === 'alps'
        ? { [v(quote, 'intentOp')]: '/intentOp' }
        : {
            [v(quote, 'intentId')]: '/routes/0/intentId',
            [v(quote, 'expiresAt')]: '/routes/0/expiresAt',
            [v(quote, 'origin')]: '/routes/0/signData/origin',
            [v(quote, 'destination')]: '/routes/0/signData/destination',
          }
    const step: HttpStep = {
      name: `quote ${this.amount} USDC on ${this.chainId} (${this.version}) for account 0, to a fresh account`,
      http: {
        method: 'POST',
        path: '/intents/route',
        apiKey: 'default',
        version: this.version,
        body: {
          destinationChainId: this.chainId,
          tokenRequests: [{ tokenAddress: variable(`tokens.${this.chainId}.USDC`), amount: this.amount }],
          account: { address: variable('accounts.0.address'), accountType: 'EOA' },
          recipient: { address: variable('fresh.0.address'), accountType: 'EOA' },
        },
      },
      expect: { status: 200, schema: this.version === 'alps' ? 'AlpsRouteResponse' : 'BlancRouteResponse' },
      capture,
    }
    await real.run([{ step, property: 'response-schema', route: 'quote' }])
  }
  toString = () => `quote(${this.version}, ${this.chainId}, ${this.amount})`
}

/** Sign a quote and submit it: 201 in the submission schema. */
class SubmitCommand implements fc.AsyncCommand<Model, Executor> {
  constructor(readonly pick: number) {}
  private target = (m: Readonly<Model>) => {
    const open = m.quotes.filter((q) => !q.submitted && !q.expired)
    return open[this.pick % Math.max(1, open.length)]
  }
  check = (m: Readonly<Model>) => m.inFlight === undefined && this.target(m) !== undefined
  async run(m: Model, real: Executor) {
    const quote = this.target(m)!
    quote.submitted = true
    m.inFlight = quote
    const expect: HttpStep['expect'] =
      quote.version === 'alps'
        ? { status: 201, schema: 'SubmissionResult', body: { '/result/status': { equals: 'PENDING' } } }
        : { status: [200, 201], schema: 'BlancSubmitResponse' }
    await real.run([
      ...signSteps(quote),
      {
        step: submitStep(
          quote,
          `submit quote ${quote.n}`,
          expect,
          quote.version === 'alps' ? { [v(quote, 'id')]: '/result/id' } : undefined,
        ),
        property: 'response-schema',
        route: submitRoute(quote),
      },
    ])
  }
  toString = () => `submit(${this.pick})`
}

/** Submit an already submitted quote again: alps 409, blanc 404. */
class SubmitAgainCommand implements fc.AsyncCommand<Model, Executor> {
  constructor(readonly pick: number) {}
  private target = (m: Readonly<Model>) => {
    const done = m.quotes.filter((q) => q.submitted)
    return done[this.pick % Math.max(1, done.length)]
  }
  check = (m: Readonly<Model>) => this.target(m) !== undefined
  async run(m: Model, real: Executor) {
    const quote = this.target(m)!
    const alps = quote.version === 'alps'
    await real.run([
      {
        step: submitStep(
          quote,
          `submit quote ${quote.n} again: ${alps ? '409 (alps: accepted once)' : '404 (blanc: the quote is consumed)'}`,
          { status: alps ? 409 : 404, envelope: quote.version },
        ),
        property: alps ? 'intent-accepted-once' : 'quote-consumed-once',
        route: submitRoute(quote),
      },
    ])
  }
  toString = () => `submitAgain(${this.pick})`
}

/** Poll the intent in flight to COMPLETED; its transactions are mined; the fresh account got exactly the amount. */
class SettleCommand implements fc.AsyncCommand<Model, Executor> {
  check = (m: Readonly<Model>) => m.inFlight !== undefined
  async run(m: Model, real: Executor) {
    const quote = m.inFlight!
    m.inFlight = undefined
    await settleQuote(m, real, quote)
  }
  toString = () => 'settle'
}

/** Let a blanc quote expire (the clock), then submit it: 404. */
class ExpireCommand implements fc.AsyncCommand<Model, Executor> {
  constructor(readonly pick: number) {}
  private target = (m: Readonly<Model>) => {
    const open = m.quotes.filter((q) => q.version === 'blanc' && !q.submitted && !q.expired)
    return open[this.pick % Math.max(1, open.length)]
  }
  // Advancing the clock would expire an intent in flight too: only with none.
  check = (m: Readonly<Model>) => m.inFlight === undefined && this.target(m) !== undefined
  async run(m: Model, real: Executor) {
    const quote = this.target(m)!
    // The clock passes every quote made so far (or nearly): none of them is submitted after this.
    for (const other of m.quotes) other.expired = true
    const tag = (step: Step, property: PropertyName, route: string): TaggedStep => ({ step, property, route })
    await real.run([
      ...signSteps(quote),
      tag(
        {
          name: `let quote ${quote.n} expire`,
          clock: { until: ref(quote, 'expiresAt'), fallback: 'not-applicable', maxWaitSeconds: 30 },
        },
        'quote-expires',
        'submitQuoted',
      ),
      tag(
        submitStep(quote, `submit expired quote ${quote.n}: 404`, {
          status: 404,
          envelope: 'blanc',
          body: { [MESSAGE_POINTER.blanc]: { exists: true } },
        }),
        'quote-expires',
        'submitQuoted',
      ),
    ])
  }
  toString = () => `expire(${this.pick})`
}

/** Withdraw `amount` USDC of account 0's lock on a chain: 200 in the spec schema. */
class WithdrawCommand implements fc.AsyncCommand<Model, Executor> {
  constructor(
    readonly version: FuzzVersion,
    readonly chainId: number,
    readonly amount: number,
  ) {}
  check = () => true
  async run(_m: Model, real: Executor) {
    await real.run([
      {
        step: {
          name: `withdraw ${this.amount} USDC units of account 0 on ${this.chainId} (${this.version})`,
          http: {
            method: 'POST',
            path: '/withdrawals',
            apiKey: 'default',
            version: this.version,
            body: {
              account: variable('accounts.0.address'),
              chainId: this.chainId,
              tokenAddress: variable(`tokens.${this.chainId}.USDC`),
              amount: this.amount,
              recipient: variable('fresh.1.address'),
            },
          },
          expect: { status: 200, schema: 'WithdrawalResponse' },
        },
        property: 'withdrawal-schema',
        route: 'withdraw',
      },
    ])
  }
  toString = () => `withdraw(${this.version}, ${this.chainId}, ${this.amount})`
}

/**
 * The commands of the stateful phase for a target: fast-check generates sequences of them,
 * runs them against the model and the target, and shrinks a failing one (fewest commands).
 *
 * @example
 * fc.commands(statefulCommands(space), { maxCommands: 6 })
 */
export function statefulCommands(space: StatefulSpace): fc.Arbitrary<fc.AsyncCommand<Model, Executor>>[] {
  const version = fc.constantFrom(...space.versions)
  const chain = fc.constantFrom(...space.chainIds)
  const amount = fc.integer({ min: 1000, max: 2_000_000 }).map(String)
  const pick = fc.nat(3)
  const quote = fc.tuple(version, chain, amount).map(([ver, id, a]) => new QuoteCommand(ver, id, a))
  const submit = pick.map((p) => new SubmitCommand(p))
  const settle = fc.constant(new SettleCommand())
  // fast-check picks each arbitrary as often: the lifecycle's commands are listed more than
  // once, so a sequence reaches a submit, a second submit and a settle more often.
  const submitAgain = pick.map((p) => new SubmitAgainCommand(p))
  const commands: fc.Arbitrary<fc.AsyncCommand<Model, Executor>>[] = [
    quote,
    quote,
    quote,
    submit,
    submit,
    submit,
    submitAgain,
    submitAgain,
    settle,
    settle,
  ]
  if (space.clock && space.versions.includes('blanc')) commands.push(pick.map((p) => new ExpireCommand(p)))
  if (space.deposits) commands.push(depositCommand(space))
  if (space.withdrawals)
    commands.push(
      fc
        .tuple(version, chain, fc.integer({ min: 1, max: 1000 }))
        .map(([ver, id, a]) => new WithdrawCommand(ver, id, a)),
    )
  return commands
}
