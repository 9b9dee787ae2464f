import type { PriceTable } from '../prices/prices'
import type { CheckedRouteRequest } from './checkRouteRequest'
import { estimateGas, feesForRequest, type GasEstimate, type RequestFees, sumFees } from './fees'
import { createGasPrices, type GasPriceTable } from './gasPrices'
import { requirePrice } from './requirePrice'
import type { ChainHoldings, FundingPlan, NeedFor } from './types'

const DEFAULT_GAS = createGasPrices()

/** The gas of a route and the fees of each of its requests. */
export type RouteCost = { gas: GasEstimate; fees: RequestFees[] }

/** How one quote prices its routes: the gas prices and ETH price it read, and the cost of any plan. */
export type RouteCosts = {
  /** Per chain: the gas price quotes charge (simulator/quoting/gasPrices.ts), wei. */
  gasPrices: Record<number, bigint>
  /** The L1 base fee the OP-stack chains' data fees use, wei. */
  l1BaseFeeWei: bigint
  /** USD price of ETH (gas is paid in ether). */
  ethPrice: number
  /** The cost of funding from `chainIds`; with the plan, gas counts its lock ids per chain. */
  costOf(chainIds: number[], plan?: FundingPlan): RouteCost
  /** What the planner must take per request (fees without the swap fee), memoized per quote. */
  needFor: NeedFor
}

/** Parameters of {@link createRouteCosts}. */
export type CreateRouteCostsParameters = {
  checked: CheckedRouteRequest
  holdings: readonly ChainHoldings[]
  prices: Pick<PriceTable, 'get'>
  /** The swap fee in basis points, sponsored or not (the planner charges the user's part). */
  swapFeeBps: bigint
  /** The gas prices quotes charge (default: {@link createGasPrices}'s defaults). */
  gas?: GasPriceTable | undefined
}

/**
 * The pricing of one quote (fees.ts, docs/quoting.md "Price"): gas price per chain from the gas
 * price table (realistic per chain, `--gas-price`), an L1 data fee on OP-stack chains, gas charged
 * to the first request, bridge/protocol/settlement/swap fees per request.
 * Throws Quote.MissingPriceError when ETH or a requested token has no USD price.
 */
export function createRouteCosts(parameters: CreateRouteCostsParameters): RouteCosts {
  const { checked, holdings, prices, swapFeeBps } = parameters
  const { requests, destinationChainId, minGas, sponsorship } = checked
  const gas = parameters.gas ?? DEFAULT_GAS
  const gasPrices: Record<number, bigint> = {}
  for (const h of holdings) gasPrices[h.chainId] = gas.wei(h.chainId)
  const l1DataFee = gas.l1DataFeeWei
  const ethPrice = requirePrice(prices, 'ETH')

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
  const costOf = (chainIds: number[], plan?: FundingPlan, ids = idsPerChain(chainIds, plan)): RouteCost => {
    const gas = estimateGas({
      origins: chainIds.map((chainId, i) => ({ chainId, ids: ids[i] ?? 0 })),
      destinationChainId,
      minGas,
      gasPrices,
      l1DataFee,
    })
    const crossChain = chainIds.some((c) => c !== destinationChainId)
    const fees = requests.map((r, i) =>
      feesForRequest({
        amount: r.amount,
        crossChain,
        gasWei: i === 0 ? gas.totalWei : 0n,
        ethPrice,
        token: { decimals: r.token.decimals, price: requirePrice(prices, r.symbol) },
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
  return {
    gasPrices,
    l1BaseFeeWei: gas.l1BaseFeeWei,
    ethPrice,
    costOf: (chainIds, plan) => costOf(chainIds, plan),
    needFor,
  }
}
