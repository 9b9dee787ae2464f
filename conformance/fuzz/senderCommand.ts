import fc from 'fast-check'
import { type Address, getAddress } from 'viem'
import { toLockId } from '../../lib/lockTag'
import type { HttpStep, Matcher, Step } from '../scenario/schema'
import {
  type Executor,
  type Model,
  type QuoteRef,
  type StatefulSpace,
  signSteps,
  submitRoute,
  submitStep,
  type TaggedStep,
  v,
  variable,
} from './model'
import type { FuzzVersion } from './routes'
import { settleQuote, statusRoute } from './settle'

/**
 * The sender's side of `settled-exactly`: a quote → sign → submit → COMPLETED of the sequence's
 * own sender, in one command, with the sender's wallet and Compact lock read on every origin
 * chain and token of the quote before the submit and after COMPLETED.
 *
 * Isolated: the sender is a fresh account of the sequence (`fresh.3`, a new key every sequence,
 * so no other sequence, shard or run moves its funds), funded by account 0 on one chain with
 * exactly what the command needs, and nothing else of the sequence runs between its two reads
 * (one command; none while another intent is in flight). Which sequences do it, on which chains,
 * for how much and funded how, comes from the seed like every other command.
 *
 * What moves, by funding method (the spec's `settlementContext.fundingMethod`; docs/settlement.md
 * and simulator/settlement/prepareClaim.ts): the relayer claims each origin element through the
 * arbiter, which takes exactly the element's amounts (Resources › Element `idsAndAmounts`; in
 * blanc the same amounts are the route's `cost.input[].amount`, Resources › Version blanc route
 * shape) and pays them to the relayer:
 * - PERMIT2: Permit2 moves them from the sender's wallet (`permitWitnessTransferFrom`); its
 *   Compact lock does not move.
 * - COMPACT: The Compact moves them out of the sender's lock (ERC-6909 balance of the lock id);
 *   its wallet does not move. The relayer is paid in the underlying token, not a lock.
 * No deposit into The Compact is part of a settlement here (the devnet does not implement
 * `options.topupCompact`, which the spec names without saying what it does, and the fuzzer
 * never sends it), so no step moves one balance into the other. The fill pays the recipient
 * from the relayer's own funds: the sender's balances on the destination move only if it is an
 * origin too.
 */

/** The sequence's own sender: a fresh account (fresh.0 receives fills, fresh.1 withdrawals, fresh.2 deposits). */
const SENDER = 'fresh.3'
const MAX_UINT256 = ((1n << 256n) - 1n).toString()
/** Raw USDC units the sender gets beyond the amount it asks for: the quote's fees come out of them. */
const HEADROOM = 1_000_000n
/** Wei the sender gets for its Permit2 approval's gas. */
const GAS_MONEY = (10n ** 16n).toString()

type FundingMethod = 'PERMIT2' | 'COMPACT'

/** One origin chain and token of a quote, its funding method, and its amounts (as `${…}` of the captured quote). */
type Input = { chainId: number; token: Address; method: string | undefined; amounts: string[] }

/** The low 160 bits of a lock id: its token. */
const tokenOfId = (id: string): Address =>
  getAddress(`0x${(BigInt(id) & ((1n << 160n) - 1n)).toString(16).padStart(40, '0')}`)

type AlpsElement = {
  chainId?: unknown
  idsAndAmounts?: unknown
  mandate?: { qualifier?: { settlementContext?: { fundingMethod?: unknown } } }
}
type BlancInput = { chainId?: unknown; tokenAddress?: unknown }

/**
 * The origin chains and tokens the captured quote spends, grouped (one entry per chain and
 * token), and first the one the sender was funded with: should the quote not name it, nothing
 * may leave it.
 */
function inputsOf(quote: QuoteRef, real: Executor, funded: { chainId: number; token: unknown }): Input[] {
  const byKey = new Map<string, Input>()
  const entry = (chainId: unknown, token: Address, method: string | undefined) => {
    const key = `${String(chainId)}:${token.toLowerCase()}`
    let found = byKey.get(key)
    if (!found) {
      found = { chainId: Number(chainId), token, method, amounts: [] }
      byKey.set(key, found)
    }
    found.method ??= method
    return found
  }
  const add = (chainId: unknown, token: Address, method: string | undefined, amount: string) =>
    entry(chainId, token, method).amounts.push(amount)
  if (typeof funded.token === 'string') entry(funded.chainId, getAddress(funded.token), undefined)
  if (quote.version === 'alps') {
    const name = v(quote, 'intentOp')
    const elements = (real.read(name) as { elements?: AlpsElement[] } | undefined)?.elements ?? []
    elements.forEach((element, i) => {
      const method = element.mandate?.qualifier?.settlementContext?.fundingMethod
      const pairs = Array.isArray(element.idsAndAmounts) ? (element.idsAndAmounts as unknown[][]) : []
      pairs.forEach((pair, j) => {
        if (typeof pair[0] !== 'string' || !/^\d+$/.test(pair[0])) return
        add(
          element.chainId,
          tokenOfId(pair[0]),
          typeof method === 'string' ? method : undefined,
          variable(`${name}.elements.${i}.idsAndAmounts.${j}.1`),
        )
      })
    })
  } else {
    const name = v(quote, 'input')
    const inputs = (real.read(name) as BlancInput[] | undefined) ?? []
    // The route's funding method (the devnet names it), else what its origin typed data is.
    const named = real.read(v(quote, 'fundingMethod'))
    const primaryType = (real.read(v(quote, 'origin')) as { primaryType?: unknown }[] | undefined)?.[0]
      ?.primaryType
    const method =
      typeof named === 'string' ? named : primaryType === 'MultichainCompact' ? 'COMPACT' : 'PERMIT2'
    inputs.forEach((input, i) => {
      if (typeof input.tokenAddress !== 'string') return
      add(input.chainId, getAddress(input.tokenAddress), method, variable(`${name}.${i}.amount`))
    })
  }
  return [...byKey.values()].filter((input) => Number.isSafeInteger(input.chainId))
}

/** Quote `amount` USDC on `chainId` for the sequence's own sender, funded on `origin`; submit, settle, and check both sides. */
export class SenderCommand implements fc.AsyncCommand<Model, Executor> {
  constructor(
    readonly space: StatefulSpace,
    readonly version: FuzzVersion,
    readonly origin: number,
    readonly chainId: number,
    readonly amount: string,
    readonly method: FundingMethod,
  ) {}
  check = (m: Readonly<Model>) => m.inFlight === undefined && m.sent < 2
  async run(m: Model, real: Executor) {
    const n = ++m.sent
    const quote: QuoteRef = {
      n,
      prefix: `s${n}`,
      signer: variable(`${SENDER}.privateKey`),
      version: this.version,
      chainId: this.chainId,
      amount: this.amount,
      submitted: true,
      settled: false,
      expired: false,
    }
    const sender = variable(`${SENDER}.address`)
    const contracts = this.space.contracts?.[this.origin]
    const lockTagOf = (chainId: number) => this.space.contracts?.[chainId]?.lockTag
    // COMPACT needs the allocator's lock tag; without it the sender is funded through Permit2.
    const method: FundingMethod = this.method === 'COMPACT' && lockTagOf(this.origin) ? 'COMPACT' : 'PERMIT2'
    const funds = (BigInt(this.amount) + HEADROOM).toString()
    const usdc = variable(`tokens.${this.origin}.USDC`)
    const setup = (step: Step): TaggedStep => ({
      step,
      property: 'settled-exactly',
      route: statusRoute(quote),
    })
    const funding: Step[] =
      method === 'PERMIT2'
        ? [
            {
              name: `give the sender gas on ${this.origin}`,
              chain: {
                action: 'transfer',
                chainId: this.origin,
                from: 0,
                to: sender,
                token: 'native',
                amount: GAS_MONEY,
              },
            },
            {
              name: `give the sender ${funds} USDC units on ${this.origin}`,
              chain: {
                action: 'transfer',
                chainId: this.origin,
                from: 0,
                to: sender,
                token: usdc,
                amount: funds,
              },
            },
            {
              name: 'the sender approves Permit2 for its USDC',
              chain: {
                action: 'approve',
                chainId: this.origin,
                from: variable(`${SENDER}.privateKey`),
                token: usdc,
                spender: contracts?.permit2 ?? '',
                amount: MAX_UINT256,
              },
            },
          ]
        : [
            {
              name: `account 0 lets The Compact take its USDC on ${this.origin}`,
              chain: {
                action: 'approve',
                chainId: this.origin,
                from: 0,
                token: usdc,
                spender: contracts?.compact ?? '',
                amount: MAX_UINT256,
              },
            },
            {
              name: `account 0 deposits ${funds} USDC units into a lock of the sender's on ${this.origin}`,
              chain: {
                action: 'depositCompact',
                chainId: this.origin,
                from: 0,
                token: usdc,
                lockTag: lockTagOf(this.origin)!,
                amount: funds,
                recipient: sender,
              },
            },
          ]
    const quoteStep: HttpStep = {
      name: `quote ${this.amount} USDC on ${this.chainId} (${this.version}) for the sequence's own sender, funded on ${this.origin} (${method}), to a fresh account`,
      http: {
        method: 'POST',
        path: '/intents/route',
        apiKey: 'default',
        version: this.version,
        body: {
          destinationChainId: this.chainId,
          tokenRequests: [{ tokenAddress: variable(`tokens.${this.chainId}.USDC`), amount: this.amount }],
          account: { address: sender, accountType: 'EOA' },
          recipient: { address: variable('fresh.0.address'), accountType: 'EOA' },
        },
      },
      expect: { status: 200, schema: this.version === 'alps' ? 'AlpsRouteResponse' : 'BlancRouteResponse' },
      capture:
        this.version === 'alps'
          ? { [v(quote, 'intentOp')]: '/intentOp' }
          : {
              [v(quote, 'intentId')]: '/routes/0/intentId',
              [v(quote, 'origin')]: '/routes/0/signData/origin',
              [v(quote, 'destination')]: '/routes/0/signData/destination',
              [v(quote, 'input')]: '/routes/0/cost/input',
              [v(quote, 'fundingMethod')]: '?/routes/0/fundingMethod',
            },
    }
    await real.run([...funding.map(setup), { step: quoteStep, property: 'response-schema', route: 'quote' }])

    // Every origin chain and token the quote spends: the wallet and the lock, before and after.
    const before: TaggedStep[] = []
    const after: TaggedStep[] = []
    const funded = { chainId: this.origin, token: real.read(`tokens.${this.origin}.USDC`) }
    inputsOf(quote, real, funded).forEach((input, k) => {
      const { chainId, token } = input
      const drop = input.amounts.map((amount) => `-${amount}`)
      // Not an input of the quote (the funded token it does not name): nothing may leave it.
      const moves = drop.length > 0
      const method: FundingMethod = input.method === 'COMPACT' ? 'COMPACT' : 'PERMIT2'
      const movedWhat = (side: FundingMethod) =>
        !moves
          ? 'nothing (not an input of the quote)'
          : method === side
            ? `the quoted input (${method})`
            : `nothing (${method})`
      const moved = (side: FundingMethod): Matcher['changedBy'] => ({
        from: variable(v(quote, `${side === 'COMPACT' ? 'lock' : 'wallet'}${k}`)),
        by: moves && method === side ? (drop.length === 1 ? drop[0]! : drop) : '0',
      })
      const what = `the sender's ${token} on ${chainId}`
      before.push(
        setup({
          name: `${what} before the submit (wallet)`,
          chain: {
            action: 'readBalance',
            chainId,
            account: sender,
            token,
            captureAs: v(quote, `wallet${k}`),
          },
        }),
      )
      after.push(
        setup({
          name: `${what} in the wallet moved by exactly ${movedWhat('PERMIT2')}`,
          chain: {
            action: 'readBalance',
            chainId,
            account: sender,
            token,
            expect: { changedBy: moved('PERMIT2') },
          },
        }),
      )
      const lockTag = lockTagOf(chainId)
      const compact = this.space.contracts?.[chainId]?.compact
      if (!lockTag || !compact) return
      const lock = {
        action: 'readContract' as const,
        chainId,
        address: compact,
        abi: 'TheCompact',
        functionName: 'balanceOf',
        args: [sender, toLockId(lockTag as `0x${string}`, token).toString()],
      }
      before.push(
        setup({
          name: `${what} before the submit (its Compact lock)`,
          chain: { ...lock, captureAs: v(quote, `lock${k}`) },
        }),
      )
      after.push(
        setup({
          name: `${what} in its Compact lock moved by exactly ${movedWhat('COMPACT')}`,
          chain: { ...lock, expect: { changedBy: moved('COMPACT') } },
        }),
      )
    })
    const expect: HttpStep['expect'] =
      quote.version === 'alps'
        ? { status: 201, schema: 'SubmissionResult', body: { '/result/status': { equals: 'PENDING' } } }
        : { status: [200, 201], schema: 'BlancSubmitResponse' }
    await real.run([
      ...before,
      ...signSteps(quote),
      {
        step: submitStep(
          quote,
          `submit the sender's quote ${n}`,
          expect,
          quote.version === 'alps' ? { [v(quote, 'id')]: '/result/id' } : undefined,
        ),
        property: 'response-schema',
        route: submitRoute(quote),
      },
    ])
    await settleQuote(m, real, quote, after)
  }
  toString = () => `send(${this.version}, ${this.origin} → ${this.chainId}, ${this.amount}, ${this.method})`
}

/**
 * The sender's command for a target's space (chains with USDC, the run's versions).
 *
 * @example
 * commands.push(senderCommand(space))
 */
export function senderCommand(space: StatefulSpace): fc.Arbitrary<fc.AsyncCommand<Model, Executor>> {
  const chain = fc.constantFrom(...space.chainIds)
  return fc
    .tuple(
      fc.constantFrom(...space.versions),
      chain,
      chain,
      fc.integer({ min: 1000, max: 2_000_000 }).map(String),
      fc.constantFrom<FundingMethod>('PERMIT2', 'COMPACT'),
    )
    .map(
      ([version, origin, destination, amount, method]) =>
        new SenderCommand(space, version, origin, destination, amount, method),
    )
}
