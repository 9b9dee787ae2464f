import fc from 'fast-check'
import { DEPOSIT_STATUSES } from '../../spec/depositProcessor'
import type { HttpStep, Step } from '../scenario/schema'
import type { Executor, Model, StatefulSpace, StatusOrder, TaggedStep } from './model'
import { variable } from './model'
import type { PropertyName } from './properties'
import type { FuzzVersion } from './routes'

/**
 * The deposit processor's commands of the stateful phase: configure a webhook to the run's
 * receiver (with a secret, no whitelist, every fee sponsored), register a fresh account to be
 * paid on one chain, deposit USDC to it on another, and follow the deposit: the webhooks arrive
 * signed, its status only moves forward to `completed`, it is recorded once, the payout is
 * mined and the account holds exactly the sum of its deposits.
 */

/** The account a sequence registers for deposits (fresh.0 receives fills, fresh.1 withdrawals). */
const ACCOUNT = 'fresh.2.address'
/** A deposit of the sequence, by number: its variables are `d<n>_…`. */
const d = (n: number, name: string) => `d${n}_${name}`
const dRef = (n: number, name: string) => variable(d(n, name))
const caip2 = (chainId: number) => `eip155:${chainId}`

/** Statuses a deposit may report before it is final (facts §1), then its final ones. */
const OPEN: readonly string[] = ['processing', 'delayed', 'expecting_refund']
/** How deposit statuses move: any open status, then a final one that never changes. */
export const DEPOSIT_ORDER: Omit<StatusOrder, 'settledProperty'> = {
  pointer: '/deposits/0/status',
  rank: Object.fromEntries(DEPOSIT_STATUSES.map((status) => [status, OPEN.includes(status) ? 0 : 1])),
  final: new Set(DEPOSIT_STATUSES.filter((status) => !OPEN.includes(status))),
}

/** Deposit `amount` USDC units on one chain to the sequence's account, registered to be paid on another. */
export class DepositCommand implements fc.AsyncCommand<Model, Executor> {
  constructor(
    readonly version: FuzzVersion,
    readonly chainIds: readonly number[],
    readonly targetPick: number,
    readonly sourcePick: number,
    readonly amount: string,
  ) {}
  check = (m: Readonly<Model>) => m.deposits.count < 3
  async run(m: Model, real: Executor) {
    const steps: TaggedStep[] = []
    const tag = (step: Step, property: PropertyName, route: string) => steps.push({ step, property, route })
    const registering = m.deposits.targetChainId === undefined
    const target = m.deposits.targetChainId ?? this.chainIds[this.targetPick % this.chainIds.length]!
    const sources = this.chainIds.filter((id) => id !== target)
    const source = sources[this.sourcePick % sources.length]!
    m.deposits.targetChainId = target
    const n = ++m.deposits.count
    m.deposits.paid += BigInt(this.amount)
    const http = (method: 'GET' | 'POST', path: string, body?: unknown): HttpStep['http'] => ({
      method,
      path,
      apiKey: 'default',
      version: this.version,
      ...(body !== undefined && { body }),
    })
    if (registering) {
      tag(
        {
          name: 'the webhook goes to the receiver, signed; no whitelist; every fee sponsored',
          http: http('POST', '/deposit-processor/setup', {
            params: {
              webhookUrl: variable('webhook.url'),
              webhookSecret: variable('webhook.secret'),
              depositWhitelist: {},
              maxPriceDeviationBps: null,
              sponsorship: Object.fromEntries(
                this.chainIds.map((id) => [caip2(id), { gas: 'all', bridging: 'all' }]),
              ),
            },
          }),
          // The spec shows neither answer: any 2xx (the route table's check grades the public
          // service's shape at SHOULD).
          expect: { status: '2xx' },
        },
        'response-schema',
        'depositSetup',
      )
      tag(
        {
          name: `register a fresh account, paid on ${target}`,
          http: http('POST', '/deposit-processor/register', {
            account: variable(ACCOUNT),
            targetChainId: target,
          }),
          expect: { status: '2xx' },
        },
        'response-schema',
        'depositRegister',
      )
    }
    tag(
      {
        name: `deposit ${this.amount} USDC units on ${source}`,
        chain: {
          action: 'transfer',
          chainId: source,
          from: 0,
          to: variable(ACCOUNT),
          token: variable(`tokens.${source}.USDC`),
          amount: this.amount,
        },
        capture: { [d(n, 'tx')]: 'hash' },
      },
      'deposit-webhook',
      'depositProcessor',
    )
    const ofDeposit = { '/data/deposit/transactionHash': { equals: dRef(n, 'tx') } }
    tag(
      {
        name: `deposit ${n} is reported by a signed deposit-received webhook`,
        webhook: {
          type: 'deposit-received',
          withinSeconds: 30,
          signature: 'valid',
          where: ofDeposit,
          body: {
            '/data/account': { equals: variable(ACCOUNT) },
            '/data/deposit/amount': { equals: this.amount },
            '/data/deposit/chain': { equals: caip2(source) },
          },
        },
      },
      'deposit-webhook',
      'depositProcessor',
    )
    await real.run(steps.splice(0))
    // Its status, read until final: it only moves forward, and the deposit is recorded once.
    await real.pollForward(
      {
        step: {
          name: `deposit ${n} is recorded once, and completed for exactly its amount`,
          http: http(
            'GET',
            `/deposit-processor/deposits?account=${variable(ACCOUNT)}&txHash=${dRef(n, 'tx')}`,
          ),
          poll: {
            timeoutSeconds: 60,
            intervalMs: 100,
            final: {
              [DEPOSIT_ORDER.pointer]: { oneOf: [...DEPOSIT_ORDER.final].filter((s) => s !== 'completed') },
            },
          },
          expect: {
            status: 200,
            schema: 'DepositList',
            body: {
              '/deposits/0/status': { equals: 'completed' },
              '/deposits/0/amount': { equals: this.amount },
              '/deposits/1': { absent: true },
            },
          },
        },
        property: 'deposit-status-forward',
        route: 'depositList',
      },
      { ...DEPOSIT_ORDER, settledProperty: 'deposit-once' },
    )
    tag(
      {
        name: `deposit ${n} is paid out on ${target}, signed, for exactly its amount (all sponsored)`,
        webhook: {
          type: 'bridge-complete',
          contradictedBy: ['bridge-failed'],
          withinSeconds: 30,
          signature: 'valid',
          where: ofDeposit,
          body: {
            '/data/target/chain': { equals: caip2(target) },
            '/data/target/amount': { equals: this.amount },
          },
        },
        capture: { [d(n, 'payout')]: '/data/target/transactionHash' },
      },
      'deposit-settled-exactly',
      'depositProcessor',
    )
    tag(
      {
        name: `the payout of deposit ${n} is mined on ${target}`,
        chain: {
          action: 'receipt',
          chainId: target,
          hash: dRef(n, 'payout'),
          expectStatus: 'success',
          timeoutSeconds: 30,
        },
      },
      'deposit-settled-exactly',
      'depositProcessor',
    )
    tag(
      {
        name: `the account holds exactly the ${n} deposit${n === 1 ? '' : 's'}' USDC on ${target}`,
        chain: {
          action: 'readBalance',
          chainId: target,
          account: variable(ACCOUNT),
          token: variable(`tokens.${target}.USDC`),
          expect: { equals: String(m.deposits.paid) },
        },
      },
      'deposit-settled-exactly',
      'depositProcessor',
    )
    await real.run(steps)
  }
  toString = () =>
    `deposit(${this.version}, target #${this.targetPick}, source #${this.sourcePick}, ${this.amount})`
}

/**
 * The deposit command's arbitrary: a version, the chain paid on, the chain deposited on, an
 * amount of USDC units.
 *
 * @example
 * fc.commands([depositCommand(space), …])
 */
export function depositCommand(space: StatefulSpace): fc.Arbitrary<fc.AsyncCommand<Model, Executor>> {
  return fc
    .tuple(
      fc.constantFrom(...space.versions),
      fc.nat(3),
      fc.nat(3),
      fc.integer({ min: 1000, max: 5_000_000 }).map(String),
    )
    .map(
      ([version, target, source, amount]) =>
        new DepositCommand(version, space.chainIds, target, source, amount),
    )
}
