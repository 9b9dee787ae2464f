import { type Address, erc20Abi, type Hex, isAddress } from 'viem'
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
  return chain.calldata.get(account) ?? remember(chain.calldata, account, encodeFresh(chain, account))
}

/**
 * viem's encoding of the `aggregate3` call reading `account` on `chain`, call by call: the
 * reference of {@link encodeAccountRead}'s fast path (and its fallback).
 *
 * @example
 * const data = viemEncode(chain, account)
 */
export const viemEncode = (chain: BalanceChain, account: Address): Hex =>
  encodeCall({
    abi: artifacts.Multicall3.abi,
    functionName: 'aggregate3',
    args: [accountCalls(chain, account)],
  })

/** Two accounts that differ in every hex digit, to find where an account goes in the calldata. */
const PROBE_A = `0x${'5e'.repeat(20)}` as const
const PROBE_B = `0x${'a7'.repeat(20)}` as const

/**
 * Per token list (a chain's, fixed for the process): viem's calldata for {@link PROBE_A} cut
 * where the account's 20 bytes go, or null when the cut did not give viem's calldata for
 * {@link PROBE_B} back (the fast path is then off for that list).
 */
const templates = new WeakMap<readonly unknown[], readonly string[] | null>()

/**
 * The calldata for `account`, as viem encodes it: every argument is static (addresses, uint256)
 * inside the calls' `bytes`, so the account's bytes sit at the same places whatever the account;
 * viem's calldata for one probe account, cut at those places, is joined with the account's
 * digits (lower-cased, as viem's address encoder writes them). Checked once per token list: the
 * cut joined with a second probe, which differs in every digit, must be viem's calldata for it.
 * An account viem refuses (not an address, a wrong checksum) goes to viem, which throws.
 *
 * Why: viem's encoder (13 calls, each `encodeFunctionData`, then the tuple array) cost 66-71 ms
 * for 120 new accounts in a fresh process (as the simulator child of a conformance run, where
 * nearly every quote names a new account), this 2-10 ms with the template made (BENCHMARKS.md,
 * "the simulator child's chain work"); encodeAccountRead.test.ts compares with viem.
 */
function encodeFresh(chain: BalanceChain, account: Address): Hex {
  let template = templates.get(chain.tokens)
  if (template === undefined) {
    const cut = viemEncode(chain, PROBE_A).split(PROBE_A.slice(2))
    template = cut.join(PROBE_B.slice(2)) === viemEncode(chain, PROBE_B) ? cut : null
    templates.set(chain.tokens, template)
  }
  if (template === null || !isAddress(account)) return viemEncode(chain, account)
  return template.join(account.slice(2).toLowerCase()) as Hex
}
