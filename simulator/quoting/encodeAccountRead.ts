import { type Address, erc20Abi, type Hex } from 'viem'
import { addresses } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { encodeCall } from '../../lib/encodeCall'
import { toLockId } from '../../lib/lockTag'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import type { BalanceChain } from './createBalanceReader'
import { isNative } from './swaps'

type Call3 = { target: Address; allowFailure: boolean; callData: Hex }

/** Most entries a chain's calldata and decoded-answer caches keep (then they start again). */
const CACHE_SIZE = 1024

/** Puts `value` in a bounded cache (emptied when full) and returns it. */
export const remember = <K, V>(cache: Map<K, V>, key: K, value: V): V => {
  if (cache.size >= CACHE_SIZE) cache.clear()
  cache.set(key, value)
  return value
}

const lockIdsByToken = new Map<Address, bigint>()

/** The Compact lock id of the allocator's tag (`DEVNET_LOCK_TAG`) over `token` (computed once per token). */
export const lockIdOf = (token: Address): bigint => {
  let id = lockIdsByToken.get(token)
  if (id === undefined) {
    id = toLockId(DEVNET_LOCK_TAG, token)
    lockIdsByToken.set(token, id)
  }
  return id
}

/**
 * The calls that read an account on a chain: the chain's base fee (`getBasefee`), then per token
 * its `balanceOf(account)`, `allowance(account, Permit2)` and the Compact lock balance
 * `balanceOf(account, lockId)`, every call allowed to fail. Native ETH (the zero address in the
 * token list) reads `getEthBalance(account)` and its Compact lock (lock id token = zero address).
 */
function accountCalls(chain: BalanceChain, account: Address): Call3[] {
  return [
    {
      target: addresses.multicall3,
      allowFailure: true,
      callData: encodeCall({ abi: artifacts.Multicall3.abi, functionName: 'getBasefee' }),
    },
    ...chain.tokens.flatMap((token) => [
      // Native ETH (the zero address): the wallet's ether, and no Permit2 allowance (Permit2 cannot move it).
      isNative(token.address)
        ? {
            target: addresses.multicall3,
            allowFailure: true,
            callData: encodeCall({
              abi: artifacts.Multicall3.abi,
              functionName: 'getEthBalance',
              args: [account],
            }),
          }
        : {
            target: token.address,
            allowFailure: true,
            callData: encodeCall({ abi: erc20Abi, functionName: 'balanceOf', args: [account] }),
          },
      // (For native ETH this slot is a placeholder that fails and is ignored: the allowance reads as 0.)
      {
        target: isNative(token.address) ? addresses.multicall3 : token.address,
        allowFailure: true,
        callData: encodeCall({
          abi: erc20Abi,
          functionName: 'allowance',
          args: [account, addresses.permit2],
        }),
      },
      {
        target: addresses.compact,
        allowFailure: true,
        callData: encodeCall({
          abi: artifacts.TheCompact.abi,
          functionName: 'balanceOf',
          args: [account, lockIdOf(token.address)],
        }),
      },
    ]),
  ]
}

/** The Multicall3 `aggregate3` calldata reading `account` on `chain` (encoded once per account, then kept). */
export function encodeAccountRead(chain: BalanceChain, account: Address): Hex {
  return (
    chain.calldata.get(account) ??
    remember(
      chain.calldata,
      account,
      encodeCall({
        abi: artifacts.Multicall3.abi,
        functionName: 'aggregate3',
        args: [accountCalls(chain, account)],
      }),
    )
  )
}
