import { type Chain, getAddress } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { AlpsRouteResponse, BlancRouteResponse, IntentCost, RouteRequest } from '../../conformance/spec'
import { type TokenInfo, tokensByChain } from '../../contracts/addresses'
import { lockTagOfId } from '../eip712/typedData'
import type { Faults } from '../faults/faults'
import { microUsd, type PriceTable, usdNumber } from '../prices/prices'
import { createEmissaryConfigs } from '../signing/emissary'
import type { Clock } from '../util/clock'
import { buildIntentOp, type ExecutionInput } from './buildIntentOp'
import {
  GasUnitsTooLargeError,
  InsufficientLiquidityError,
  MissingPriceError,
  UnknownAccountTypeError,
  UnknownChainError,
  UnknownTokenError,
} from './errors'
import {
  estimateGas,
  FEE_KEYS,
  FEE_MODEL,
  type FeeParts,
  feePartsJson,
  feesForRequest,
  sumFees,
} from './fees'
import { type FundingPlan, type PlanRequest, partialPlan, planFunding, shortfall } from './planFunding'
import type { QuoteStore } from './quoteStore'
import { type ChainHoldings, createBalanceChains, type RoundTripScope, readBalances } from './readBalances'
import { withNative } from './swaps'
import type { QuotingService } from './types'
import {
  ACCOUNT_TYPES,
  type AccountType,
  type FundingMethod,
  type FundingSource,
  type QuotedAccount,
  type QuotedIntent,
  type StoredQuotedIntent,
} from './types'

/** A chain the service quotes on (a DevnetChain fits). */
export type QuotingChain = { chainId: number; chain: Chain; rpcUrl: string }

/** Parameters of {@link createQuotingService}. */
export type CreateQuotingServiceParameters = {
  chains: readonly QuotingChain[]
  /** Signs `serverSignature` (devnet.keys.server.account). */
  server: PrivateKeyAccount
  clock: Clock
  /** The blanc quote store (simulator/quoting/quoteStore.ts); the intent service consumes from it. */
  quotes: QuoteStore<StoredQuotedIntent>
  prices: PriceTable
  tokens?: Record<number, readonly TokenInfo[]> | undefined
  /** Injected faults (`quotes.malformed-field`). */
  faults: Pick<Faults, 'has'>
  /** The allocator's signer (devnet.keys.allocator.account): signs `account.emissaryConfig`; without it quotes omit emissaryConfig. */
  allocatorSigner?: PrivateKeyAccount | undefined
  /** Swap fee in basis points of the swapped value (default FEE_MODEL.swapBps, 10; docs/quoting.md). */
  swapFeeBps?: number | bigint | undefined
}

/** One quoted route before it is stored. */
/**
 * One quoted route before it is stored: the quote, what the user pays (the sort key; per request
 * and fee part, for the blanc cost), and for alps the `intentCost` (blanc derives its own cost).
 */
type Route = {
  quoted: QuotedIntent
  userFeeMicroUsd: bigint
  userFees: FeeParts[]
  intentCost?: IntentCost | undefined
}

/** The quoting service, with its quote store, price table and RPC counter. */
export type QuotingServiceInstance = QuotingService & {
  quotes: QuoteStore<StoredQuotedIntent>
  prices: PriceTable
  /** JSON-RPC round trips (`eth_call`s) made by the last quote to finish (each quote counts its own, also under concurrency). */
  lastQuoteRpcRoundTrips(): number
  /** JSON-RPC round trips since start. */
  rpcRoundTrips(): number
}

/**
 * The quoting service behind `POST /intents/route` (alps and blanc) and `POST /quotes`: reads
 * balances (one Multicall3 per chain), plans funding, prices, builds and signs the IntentOp.
 */
export function createQuotingService(parameters: CreateQuotingServiceParameters): QuotingServiceInstance {
  const { clock, server } = parameters
  const { prices, quotes } = parameters
  // Native ETH (the zero address) is a token too: requestable as tokenOut, spendable from Compact locks.
  const tokens = withNative(parameters.tokens ?? tokensByChain)
  const swapFeeBps = BigInt(parameters.swapFeeBps ?? FEE_MODEL.swapBps)
  if (swapFeeBps < 0n || swapFeeBps >= 10_000n) throw new RangeError('swapFeeBps must be in [0, 10000).')
  const { chains, rpc } = createBalanceChains(
    parameters.chains.map((c) => ({ ...c, tokens: tokens[c.chainId] ?? [] })),
  )
  let lastCount = 0
  const emissaryConfigs = parameters.allocatorSigner
    ? createEmissaryConfigs({ allocatorSigner: parameters.allocatorSigner })
    : undefined

  async function quote(
    request: RouteRequest,
    all: boolean,
    scope: RoundTripScope,
  ): Promise<{
    routes: Route[]
    holdings: ChainHoldings[]
    requests: PlanRequest[]
    missing?: ReturnType<typeof shortfall>
  }> {
    const destinationChainId = Number(request.destinationChainId)
    const running = chains.map((c) => c.chainId)
    if (!running.includes(destinationChainId))
      throw new UnknownChainError(
        `Destination chain ${destinationChainId} is not run by this devnet (chains: ${running.join(', ')}).`,
        { destinationChainId, chains: running },
      )
    const accountType = (request.account.accountType ?? 'EOA') as AccountType
    if (!ACCOUNT_TYPES.includes(accountType))
      throw new UnknownAccountTypeError(request.account.accountType, ACCOUNT_TYPES)
    const destTokens = tokens[destinationChainId] ?? []
    const requests: PlanRequest[] = request.tokenRequests.map((tr) => {
      const token = destTokens.find((t) => t.address.toLowerCase() === tr.tokenAddress.toLowerCase())
      if (!token)
        throw new UnknownTokenError(
          `Unknown token ${tr.tokenAddress} on chain ${destinationChainId} (known: ${destTokens.map((t) => `${t.symbol} ${t.address}`).join(', ')}).`,
          { tokenAddress: tr.tokenAddress, chainId: destinationChainId },
        )
      return { symbol: token.symbol, token, amount: BigInt(tr.amount) }
    })
    validateAccessList(request, running)
    const account: QuotedAccount = {
      address: getAddress(request.account.address),
      accountType,
      isSmartAccount: accountType !== 'EOA',
      setupOps: (request.account.setupOps ?? []) as QuotedAccount['setupOps'],
      delegations: request.account.delegations,
    }
    const recipient = getAddress(request.recipient?.address ?? request.account.address)
    const destinationExecutions = request.destinationExecutions as ExecutionInput[] | undefined
    const minGas = destinationExecutions?.length ? BigInt(request.destinationGasUnits ?? 500_000) : 0n
    if (minGas >= MAX_MIN_GAS) throw new GasUnitsTooLargeError(request.destinationGasUnits)
    const sponsor = request.options?.sponsorSettings
    const sponsorship = {
      gas: !!sponsor?.gasSponsored,
      bridge: !!sponsor?.bridgeFeesSponsored,
      swap: !!sponsor?.swapFeesSponsored,
    }

    const holdings = await readBalances(chains, account.address, scope)
    const gasPrices = Object.fromEntries(
      holdings.map((h) => [h.chainId, h.baseFee + FEE_MODEL.priorityFeeWei]),
    ) as Record<number, bigint>
    const ethPrice = price('ETH')

    /** Lock ids a plan takes per origin chain (the number of requests when there is no plan yet). */
    const idsPerChain = (chainIds: number[], plan?: FundingPlan) =>
      chainIds.map((chainId) =>
        plan
          ? new Set(
              plan.allocations.flatMap((a) =>
                a.sources.filter((s) => s.chainId === chainId).map((s) => s.lockId),
              ),
            ).size
          : requests.length,
      )
    const costOf = (chainIds: number[], plan?: FundingPlan, ids = idsPerChain(chainIds, plan)) => {
      const gas = estimateGas({
        origins: chainIds.map((chainId, i) => ({ chainId, ids: ids[i] ?? 0 })),
        destinationChainId,
        minGas,
        gasPrices,
      })
      const crossChain = chainIds.some((c) => c !== destinationChainId)
      const fees = requests.map((r, i) =>
        feesForRequest({
          amount: r.amount,
          crossChain,
          gasWei: i === 0 ? gas.totalWei : 0n,
          ethPrice,
          token: { decimals: r.token.decimals, price: price(r.symbol) },
          sponsorship,
          swapped: plan?.allocations[i]?.swapped ?? 0n,
          swapBps: swapFeeBps,
        }),
      )
      return { gas, fees }
    }
    // The planner adds the swap fee itself (it depends on how much is swapped). Without it, the
    // need depends only on the chains and the lock ids per chain: the planner asks for the same
    // ones again and again while it settles each plan, so they are computed once per quote.
    const needs = new Map<string, bigint[]>()
    const needFor = (chainIds: number[], plan?: FundingPlan) => {
      const ids = idsPerChain(chainIds, plan)
      const key = `${chainIds.join(',')}|${ids.join(',')}`
      let need = needs.get(key)
      if (!need) {
        need = costOf(chainIds, plan, ids).fees.map(
          (f, i) => (requests[i]?.amount ?? 0n) + sumFees(f.user) - f.user.swapFee,
        )
        needs.set(key, need)
      }
      return need
    }
    const swap = { userBps: sponsorship.swap ? 0n : swapFeeBps, price: (s: string) => prices.get(s) }

    const methods: FundingMethod[] = ['PERMIT2', 'COMPACT']
    const planAll = (withSwaps: boolean) =>
      methods.flatMap((method) =>
        planFunding({
          holdings,
          requests,
          destinationChainId,
          method,
          access: request.accountAccessList,
          needFor,
          ...(withSwaps ? { swap } : {}),
        }),
      )
    // blanc lists every plan; alps takes a plan without swaps when there is one (pickAlps), so it
    // looks for swaps only when the requested tokens alone cannot fund the request.
    let plans = planAll(all)
    if (!all && !plans.length) plans = planAll(true)
    const missing = plans.length
      ? undefined
      : shortfall({ holdings, requests, access: request.accountAccessList, needFor, swap })
    if (missing && all) return { routes: [], holdings, requests, missing }

    const now = clock.now()
    const chosen = missing
      ? [
          partialPlan({
            holdings,
            requests,
            destinationChainId,
            access: request.accountAccessList,
            needFor,
            swap,
          }),
        ]
      : all
        ? plans
        : [pickAlps(plans)]
    const routes = await Promise.all(
      chosen.map(async (plan): Promise<Route> => {
        const { gas, fees } = costOf(plan.chainIds, plan)
        const userFeeMicroUsd = requests.reduce(
          (s, r, i) => s + microUsd(sumFees(fees[i]?.user as FeeParts), r.token.decimals, price(r.symbol)),
          0n,
        )
        const sponsorFee = {
          relayer: usdNumber(sponsoredMicroUsd(requests, fees, price, ['gasFee'])),
          protocol: usdNumber(sponsoredMicroUsd(requests, fees, price, ['bridgeFee', 'swapFee'])),
        }
        const symbols = new Set([
          'ETH',
          ...requests.map((r) => r.symbol),
          ...plan.allocations.flatMap((a) => a.sources.map((s) => s.symbol)),
        ])
        // Only a smart account's Compact locks need an emissary (docs/emissary.md); cached, no RPC.
        const lockId = plan.allocations[0]?.sources[0]?.lockId
        const emissaryConfig =
          emissaryConfigs && account.isSmartAccount && plan.method === 'COMPACT' && lockId !== undefined
            ? await emissaryConfigs.configFor({ account: account.address, lockTag: lockTagOfId(lockId), now })
            : undefined
        const signedMetadata = {
          tokenPrices: Object.fromEntries([...symbols].map((s) => [s, price(s)])),
          gasPrices: Object.fromEntries(
            holdings.map((h) => [String(h.chainId), String(gasPrices[h.chainId])]),
          ),
          account: {
            address: account.address,
            accountType,
            setupOps: account.setupOps,
            ...(account.delegations ? { requiredDelegations: account.delegations } : {}),
            accountContext: {
              isSmartAccount: account.isSmartAccount,
              fundingMethod: plan.method,
              using7579: account.isSmartAccount,
            },
            ...(emissaryConfig ? { emissaryConfig } : {}),
          },
          schemeId: 'v1',
          ...(request.recipient
            ? {
                recipient: {
                  address: recipient,
                  accountType: request.recipient.accountType ?? 'EOA',
                  setupOps: request.recipient.setupOps ?? [],
                },
              }
            : {}),
          fees: {
            sponsorFee,
            protocolFees: Object.fromEntries(
              requests.map((r, i) => [
                r.token.address.toLowerCase(),
                (fees[i]?.all.protocolFee ?? 0n).toString(),
              ]),
            ),
          },
          ...(request.preClaimExecutions ? { preClaimExecutions: request.preClaimExecutions } : {}),
        }
        const { intentOp, signData, signed } = await buildIntentOp({
          plan,
          requests,
          account,
          recipient,
          destinationChainId,
          destinationExecutions,
          preClaimExecutions: request.preClaimExecutions as Record<string, ExecutionInput[]> | undefined,
          minGas,
          now,
          ttlSeconds: quotes.ttlSeconds,
          settlementLayer: 'INTENT_ARBITER',
          signedMetadata,
          server,
          // blanc routes stay on the server: only the one submitted is signed (at submission).
          signNow: !all,
        })
        // alps answers the intentCost; a blanc route's cost is made from the fees (blancRoute).
        const intentCost = all
          ? undefined
          : buildIntentCost({ plan, requests, fees, gas, ethPrice, price, sponsorFee, missing })
        const quoted: QuotedIntent = {
          intentOp,
          signedIntentOp: signed,
          signData,
          fundingMethod: plan.method,
          settlementLayer: 'INTENT_ARBITER',
          account,
          recipient,
          destinationChainId,
          originChainIds: plan.chainIds,
          outputs: requests.map((r) => ({
            token: r.token.address,
            symbol: r.symbol,
            decimals: r.token.decimals,
            amount: r.amount,
          })),
          sources: plan.chainIds.map((c) =>
            plan.allocations.flatMap((a) => a.sources.filter((s) => s.chainId === c)),
          ),
          totalCostUsd: usdNumber(userFeeMicroUsd),
          quotedAt: now,
        }
        return { quoted, userFeeMicroUsd, userFees: fees.map((f) => f.user), intentCost }
      }),
    )
    routes.sort((a, b) =>
      a.userFeeMicroUsd !== b.userFeeMicroUsd
        ? a.userFeeMicroUsd < b.userFeeMicroUsd
          ? -1
          : 1
        : a.quoted.originChainIds.length - b.quoted.originChainIds.length,
    )
    return { routes, holdings, requests, ...(missing ? { missing } : {}) }
  }

  function price(symbol: string): number {
    const p = prices.get(symbol)
    if (p === undefined) throw new MissingPriceError(symbol)
    return p
  }

  function validateAccessList(request: RouteRequest, running: number[]) {
    const access = request.accountAccessList
    if (!access) return
    const lists = [access, access.exclude ?? {}]
    const chainIds = lists.flatMap((l) => [
      ...(l.chainIds ?? []).map(Number),
      ...Object.keys(l.chainTokens ?? {}).map(Number),
    ])
    const unknownChains = [...new Set(chainIds.filter((c) => !running.includes(c)))]
    if (unknownChains.length)
      throw new UnknownChainError(
        `accountAccessList names chains this devnet does not run: ${unknownChains.join(', ')} (chains: ${running.join(', ')}).`,
        { unknownChains },
      )
    const known = (name: string, chainIds: number[]) =>
      chainIds.some((c) =>
        (tokens[c] ?? []).some(
          (t) =>
            t.address.toLowerCase() === name.toLowerCase() || t.symbol.toUpperCase() === name.toUpperCase(),
        ),
      )
    const unknownTokens = lists.flatMap((l) => [
      ...(l.tokens ?? []).filter((t) => !known(t, running)),
      ...Object.entries(l.chainTokens ?? {}).flatMap(([c, names]) =>
        names.filter((t) => !known(t, [Number(c)])).map((t) => `${t} (chain ${c})`),
      ),
    ])
    if (unknownTokens.length)
      throw new UnknownTokenError(`accountAccessList names unknown tokens: ${unknownTokens.join(', ')}.`, {
        unknownTokens,
      })
  }

  return {
    quotes,
    prices,
    lastQuoteRpcRoundTrips: () => lastCount,
    rpcRoundTrips: () => rpc.count,
    async routeAlps(request) {
      const scope = { count: 0 }
      const result = await quote(request, false, scope)
      lastCount = scope.count
      const route = result.routes[0] as Route
      const response: AlpsRouteResponse = {
        intentOp: route.quoted.intentOp,
        intentCost: route.intentCost as IntentCost,
      }
      if (result.missing)
        response.tokenRequirements = Object.fromEntries(
          result.missing.map((m) => [m.token, jsonShortfall(m)]),
        )
      return response
    },
    async routeBlanc(request) {
      const scope = { count: 0 }
      const result = await quote(request, true, scope)
      lastCount = scope.count
      if (!result.routes.length) {
        const missing = (result.missing ?? []).map(jsonShortfall)
        // The requests that fall short; all of them if none does alone (no plan settled for them together).
        const short = missing.some((m) => m.missing !== '0')
          ? missing.filter((m) => m.missing !== '0')
          : missing
        throw new InsufficientLiquidityError(
          `The account cannot fund ${short
            .map((m) => `${m.required} ${m.symbol} (has ${m.available})`)
            .join(', ')} on the chains it may use.`,
          { tokenRequirements: missing },
        )
      }
      const routes = result.routes.map(({ quoted, userFees }) => {
        const { signData: _signData, ...kept } = quoted
        return blancRoute(quoted, userFees, quotes.put(kept))
      })
      // Fault: routes without their intentId break the spec's route shape.
      if (parameters.faults.has('quotes.malformed-field'))
        for (const route of routes) delete (route as Partial<typeof route>).intentId
      return { routes } satisfies BlancRouteResponse
    },
    async resetQuotes() {
      quotes.reset()
    },
  }
}

const jsonShortfall = (m: ReturnType<typeof shortfall>[number]) => ({
  tokenAddress: m.token,
  symbol: m.symbol,
  required: m.required.toString(),
  available: m.available.toString(),
  missing: m.missing.toString(),
})

/** The Mandate's `minGas` is a uint128 (docs/settlement.md). */
const MAX_MIN_GAS = 2n ** 128n

/** Prefers plans without swaps, then PERMIT2 (what the SDK 1.x signs verifiably), then plan order. */
function pickAlps(plans: FundingPlan[]): FundingPlan {
  const direct = plans.filter((p) => !p.allocations.some((a) => a.swapped > 0n))
  const pool = direct.length ? direct : plans
  return (pool.find((p) => p.method === 'PERMIT2') ?? pool[0]) as FundingPlan
}

function buildIntentCost(parameters: {
  plan: FundingPlan
  requests: readonly PlanRequest[]
  fees: { all: FeeParts; user: FeeParts; sponsored: FeeParts }[]
  gas: ReturnType<typeof estimateGas>
  ethPrice: number
  price: (symbol: string) => number
  sponsorFee: { relayer: number; protocol: number }
  missing?: ReturnType<typeof shortfall> | undefined
}): IntentCost {
  const { plan, requests, fees, gas, ethPrice, price, sponsorFee, missing } = parameters
  const tokensSpent: Record<string, Record<string, unknown>> = {}
  for (const allocation of plan.allocations)
    for (const s of allocation.sources) {
      const chain = tokensSpent[String(s.chainId)] ?? {}
      tokensSpent[String(s.chainId)] = chain
      const prev = (chain[s.token] as { amount: string } | undefined)?.amount ?? '0'
      chain[s.token] = {
        symbol: s.symbol,
        amount: (BigInt(prev) + s.amount).toString(),
        fundingMethod: plan.method,
      }
    }
  const parts = {
    gasFeeUSD: userFeeMicroUsd(requests, fees, price, 'gasFee'),
    bridgeFeeUSD: userFeeMicroUsd(requests, fees, price, 'bridgeFee'),
    protocolFeeUSD: userFeeMicroUsd(requests, fees, price, 'protocolFee'),
    swapFeeUSD: userFeeMicroUsd(requests, fees, price, 'swapFee'),
    settlementFeeUSD: userFeeMicroUsd(requests, fees, price, 'settlementFee'),
  }
  const totalMicro = Object.values(parts).reduce((a, b) => a + b, 0n)
  return {
    hasFulfilledAll: !missing,
    tokensSpent,
    tokensReceived: requests.map((r, i) => {
      const user = fees[i]?.user as FeeParts
      const fee = sumFees(user)
      return {
        tokenAddress: r.token.address,
        amountSpent: Number(r.amount + fee),
        targetAmount: Number(r.amount),
        fee: Number(fee),
        // Exact integer strings: the numbers above lose precision past 2^53.
        amountSpentRaw: (r.amount + fee).toString(),
        targetAmountRaw: r.amount.toString(),
        feeRaw: fee.toString(),
        feeBreakdown: feePartsJson(user),
        feesByToken: {
          [r.token.address.toLowerCase()]: { amount: fee.toString(), breakdown: feePartsJson(user) },
        },
        // What pays for it: `value` (raw units of this token) adds up to amountSpentRaw when fulfilled.
        fundedBy: fundedBy(plan.allocations[i]?.sources ?? []),
        hasFulfilled: !missing || missing[i]?.missing === 0n,
      }
    }),
    sponsorFee,
    gasCost: {
      originChains: gas.origin.map((o) => ({
        chainId: o.chainId,
        gasUSD: usdNumber(microUsd(o.wei, 18, ethPrice)),
      })),
      destination: {
        chainId: gas.destination.chainId,
        gasUSD: usdNumber(microUsd(gas.destination.wei, 18, ethPrice)),
      },
      totalUSD: usdNumber(
        gas.origin.reduce(
          (s, o) => s + microUsd(o.wei, 18, ethPrice),
          microUsd(gas.destination.wei, 18, ethPrice),
        ),
      ),
    },
    feeBreakdownUSD: {
      gasFeeUSD: usdNumber(parts.gasFeeUSD),
      bridgeFeeUSD: usdNumber(parts.bridgeFeeUSD),
      protocolFeeUSD: usdNumber(parts.protocolFeeUSD),
      swapFeeUSD: usdNumber(parts.swapFeeUSD),
      settlementFeeUSD: usdNumber(parts.settlementFeeUSD),
      totalFeeUSD: usdNumber(totalMicro),
    },
  }
}

/** What the user pays of one fee part over all requests, in micro-USD (module level: see fees.ts on closures). */
function userFeeMicroUsd(
  requests: readonly PlanRequest[],
  fees: readonly { user: FeeParts }[],
  price: (symbol: string) => number,
  key: keyof FeeParts,
): bigint {
  let sum = 0n
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i] as PlanRequest
    sum += microUsd(fees[i]?.user[key] ?? 0n, r.token.decimals, price(r.symbol))
  }
  return sum
}

/** What the sponsor pays of some fee parts over all requests (summed per request, then priced), in micro-USD. */
function sponsoredMicroUsd(
  requests: readonly PlanRequest[],
  fees: readonly { sponsored: FeeParts }[],
  price: (symbol: string) => number,
  keys: readonly (keyof FeeParts)[],
): bigint {
  let sum = 0n
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i] as PlanRequest
    let raw = 0n
    for (const k of keys) raw += fees[i]?.sponsored[k] ?? 0n
    sum += microUsd(raw, r.token.decimals, price(r.symbol))
  }
  return sum
}

/** The sources of one request as the cost shows them: what is taken, and what it pays for (raw units of the requested token). */
const fundedBy = (sources: readonly FundingSource[]) =>
  sources.map((s) => ({
    chainId: s.chainId,
    tokenAddress: s.token,
    symbol: s.symbol,
    amount: s.amount.toString(),
    kind: s.kind ?? 'SAME',
    value: (s.value ?? s.amount).toString(),
  }))

const BLANC_FEE_NAMES = {
  gasFee: 'gas',
  bridgeFee: 'bridge',
  protocolFee: 'protocol',
  swapFee: 'swap',
  settlementFee: 'settlement',
} as const

/** The blanc route of a quote: cost (input, output, fees.breakdown with USD), expiresAt, signData. */
export function blancRoute(
  quoted: QuotedIntent,
  userFees: readonly FeeParts[],
  stored: { intentId: string; expiresAt: number },
) {
  const prices = quoted.intentOp.signedMetadata.tokenPrices
  const output = quoted.outputs.map((o) => ({
    chainId: quoted.destinationChainId,
    tokenAddress: o.token,
    symbol: o.symbol,
    amount: o.amount.toString(),
    usd: usdNumber(microUsd(o.amount, o.decimals, prices[o.symbol] ?? 0)),
  }))
  const breakdown = Object.fromEntries(
    FEE_KEYS.map((key) => {
      const amounts = quoted.outputs.map((o, i) => ({
        tokenAddress: o.token,
        symbol: o.symbol,
        amount: (userFees[i]?.[key] ?? 0n).toString(),
      }))
      const micro = quoted.outputs.reduce(
        (s, o, i) => s + microUsd(userFees[i]?.[key] ?? 0n, o.decimals, prices[o.symbol] ?? 0),
        0n,
      )
      return [BLANC_FEE_NAMES[key], { usd: usdNumber(micro), amounts }]
    }),
  ) as unknown as Record<string, { usd: number; amounts: unknown[] }> & { gas: { usd: number } }
  return {
    intentId: stored.intentId,
    expiresAt: stored.expiresAt,
    fundingMethod: quoted.fundingMethod,
    settlementLayer: quoted.settlementLayer,
    estimatedFillTime: { seconds: quoted.originChainIds.length > 1 ? 4 : 2 },
    cost: {
      input: quoted.sources.flat().map((s) => ({
        chainId: s.chainId,
        tokenAddress: s.token,
        symbol: s.symbol,
        amount: s.amount.toString(),
        usd: usdNumber(microUsd(s.amount, s.decimals, prices[s.symbol] ?? 0)),
        // SAME token, WRAP (ETH <-> WETH 1:1) or SWAP, and the part of the output (amount + fees) it pays for.
        kind: s.kind ?? 'SAME',
        forOutput: { tokenAddress: s.forToken ?? s.token, amount: (s.value ?? s.amount).toString() },
      })),
      output,
      fees: { totalUsd: quoted.totalCostUsd, breakdown },
    },
    signData: quoted.signData,
  }
}
