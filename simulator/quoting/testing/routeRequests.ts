import { type Address, parseUnits } from 'viem'
import { tokensByChain } from '../../../contracts/addresses'
import type { RouteRequest } from '../../../spec'
import type { DevKey, DevKeys } from '../../devnet/keys'
import type { ApiError } from '../../http/errorCodes'
import { toApiErrorOfDomain } from '../../http/errorMapping'

/** A token's address on a chain, by symbol (contracts/addresses). */
export const token = (chainId: number, symbol: string) =>
  tokensByChain[chainId]?.find((t) => t.symbol === symbol)?.address as Address

/** `n` USDC in raw units (6 decimals). */
export const usdc = (n: number) => parseUnits(String(n), 6)

/** The error a quote fails with, as the HTTP layer answers it; undefined when it succeeds. */
export async function errorOf(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    // As the HTTP layer answers it: the domain error mapped onto the error-code table.
    (e) => toApiErrorOfDomain(e) as ApiError,
  )
}

/**
 * The funded test account `i` of a devnet, and a route `request`: 100 USDC on 8453 for account 0
 * (an EOA), with `overrides`; the devnet is read when they are called (after beforeAll).
 */
export function routeRequests(devnet: () => { keys: DevKeys }) {
  const account = (i: number) => devnet().keys.accounts[i] as DevKey
  const request = (overrides: Partial<RouteRequest> = {}): RouteRequest => ({
    destinationChainId: 8453,
    tokenRequests: [{ tokenAddress: token(8453, 'USDC'), amount: usdc(100).toString() }],
    account: { address: account(0).address, accountType: 'EOA' },
    ...overrides,
  })
  return { account, request }
}
