import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  keccak256,
  maxUint256,
  numberToHex,
  parseUnits,
  zeroAddress,
} from 'viem'
import { addresses, type TokenInfo } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { toLockId, toLockTag } from '../../lib/lockTag'
import { BaseError } from '../../spec/BaseError'
import type { DevnetChain } from './chain'
import type { DevKeys } from './keys'
import { tokenArtifact } from './placement'
import type { DevnetCall } from './sendCalls'

/**
 * What the devnet gives each account on every chain, in whole tokens (scaled by each token's
 * decimals). Stablecoins (USDC, USDT, USDT0) take `stable`, WETH takes `WETH`.
 */
export const FUNDING = {
  /** Each test account: ether (`anvil_setBalance`) and wallet tokens. */
  account: { ETH: 10_000, WETH: 1_000, stable: 1_000_000 },
  /** Each test account, already deposited in the Compact under {@link DEVNET_LOCK_TAG}. */
  compactDeposit: { ETH: 10, WETH: 10, stable: 10_000 },
  /** The relayer fronts every fill: plenty of everything. */
  relayer: { ETH: 1_000_000, WETH: 1_000_000, stable: 1_000_000_000 },
  /** The funder pays for boot (gas, WETH wrapping, the deposits it makes for the accounts). */
  funder: { ETH: 1_000_000_000 },
} as const

/**
 * The lock tag of the devnet's deposits: our allocator, multichain scope, ten-minute reset
 * period (The Compact v1 layout; see lib/lockTag.ts).
 */
export const DEVNET_LOCK_TAG = toLockTag({ allocator: addresses.allocator })

const amountOf = (table: { WETH: number; stable: number }, token: TokenInfo) =>
  parseUnits(String(token.symbol === 'WETH' ? table.WETH : table.stable), token.decimals)

/** How one chain's tokens can be funded, as {@link fundChain} found them. */
export type TokenFunding = { token: TokenInfo; method: 'mint' | 'wrap' | 'storage' }

/** Parameters of {@link planFunding}. */
export type PlanFundingParameters = {
  chain: DevnetChain
  keys: DevKeys
  tokens: readonly TokenInfo[]
  /** Deposit into the Compact (it and the allocator are placed and registered). */
  compactDeposits: boolean
  /** Every token was just placed by us (no need to ask who mints it). */
  fresh: boolean
  /** Ether of each test account (`--balance`; default {@link FUNDING}.account.ETH). */
  accountEther?: number | undefined
}

/** What {@link planFunding} leaves to send: the funder's transactions, in order. */
export type FundingPlan = { calls: DevnetCall[]; methods: TokenFunding[] }

/**
 * Funds one chain: ether by `anvil_setBalance` (done here); tokens by the devnet mint path (our
 * ERC-20s, whose minter is the funder), by wrapping (WETH), or, for a forked token we do not
 * control, by writing its balance slot (done here); then the funder deposits each test account's
 * share in the Compact (`batchDeposit` with the account as recipient, one transaction per
 * account), and the relayer approves the filler for every token. The transactions are returned,
 * for the caller to send with the placement's (one batch).
 */
export async function planFunding(parameters: PlanFundingParameters): Promise<FundingPlan> {
  const { chain, keys, tokens, compactDeposits, fresh } = parameters
  const { testClient, publicClient } = chain
  const eth = (n: number) => parseUnits(String(n), 18)
  await Promise.all([
    testClient.setBalance({ address: keys.funder.address, value: eth(FUNDING.funder.ETH) }),
    testClient.setBalance({ address: keys.relayer.address, value: eth(FUNDING.relayer.ETH) }),
    ...keys.accounts.map((account) =>
      testClient.setBalance({
        address: account.address,
        value: eth(parameters.accountEther ?? FUNDING.account.ETH),
      }),
    ),
  ])

  const methods = await Promise.all(
    tokens.map(async (token): Promise<TokenFunding> => {
      if (tokenArtifact(token) === 'WETH') return { token, method: 'wrap' }
      if (fresh) return { token, method: 'mint' }
      const minter = await publicClient
        .readContract({ address: token.address, abi: artifacts.DevnetERC20.abi, functionName: 'minter' })
        .catch(() => undefined)
      return {
        token,
        method: minter?.toLowerCase() === keys.funder.address.toLowerCase() ? 'mint' : 'storage',
      }
    }),
  )

  const wallets = [
    ...keys.accounts.map((account) => ({
      label: account.label,
      address: account.address,
      table: FUNDING.account,
    })),
    { label: 'relayer', address: keys.relayer.address, table: FUNDING.relayer },
  ]
  const depositOf = (token: TokenInfo) =>
    compactDeposits ? amountOf(FUNDING.compactDeposit, token) * BigInt(keys.accounts.length) : 0n
  const calls: DevnetCall[] = []
  const storageWrites: { token: TokenInfo; holder: Address; amount: bigint }[] = []
  for (const { token, method } of methods) {
    const holders = [...wallets.map((w) => ({ ...w, amount: amountOf(w.table, token) }))]
    const funderAmount = depositOf(token)
    if (method === 'mint') {
      for (const holder of holders)
        calls.push(mintCall(token, holder.address, holder.amount, `mint ${token.symbol} to ${holder.label}`))
      if (funderAmount > 0n)
        calls.push(mintCall(token, keys.funder.address, funderAmount, `mint ${token.symbol} to funder`))
    } else if (method === 'wrap') {
      const total = holders.reduce((sum, h) => sum + h.amount, funderAmount)
      calls.push({
        label: `wrap ${token.symbol}`,
        to: token.address,
        data: encodeFunctionData({ abi: artifacts.WETH.abi, functionName: 'deposit' }),
        value: total,
        gas: 100_000n,
      })
      for (const holder of holders)
        calls.push({
          label: `transfer ${token.symbol} to ${holder.label}`,
          to: token.address,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [holder.address, holder.amount],
          }),
          gas: 100_000n,
        })
    } else {
      for (const holder of holders)
        storageWrites.push({ token, holder: holder.address, amount: holder.amount })
      if (funderAmount > 0n) storageWrites.push({ token, holder: keys.funder.address, amount: funderAmount })
    }
  }
  if (storageWrites.length) await writeBalances(chain, storageWrites)

  // The relayer lets the filler pay recipients from its tokens (settlement's approveFiller does
  // the same when it finds no allowance): done here, in the boot's batch, instead of four signed
  // transactions mined one after the other when the service starts.
  for (const { token } of methods)
    calls.push({
      label: `approve ${token.symbol} of the relayer to the filler`,
      from: keys.relayer.address,
      to: token.address,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [addresses.filler, maxUint256],
      }),
      gas: 100_000n,
    })

  if (compactDeposits) {
    for (const { token } of methods)
      calls.push({
        label: `approve ${token.symbol} to the Compact`,
        to: token.address,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [addresses.compact, maxUint256],
        }),
        gas: 100_000n,
      })
    const native = eth(FUNDING.compactDeposit.ETH)
    const idsAndAmounts: readonly [bigint, bigint][] = [
      [toLockId(DEVNET_LOCK_TAG, zeroAddress), native],
      ...tokens.map((token): [bigint, bigint] => [
        toLockId(DEVNET_LOCK_TAG, token.address),
        amountOf(FUNDING.compactDeposit, token),
      ]),
    ]
    for (const account of keys.accounts)
      calls.push({
        label: `deposit in the Compact for ${account.label}`,
        to: addresses.compact,
        data: encodeFunctionData({
          abi: artifacts.TheCompact.abi,
          functionName: 'batchDeposit',
          args: [idsAndAmounts, account.address],
        }),
        value: native,
        gas: 150_000n + 60_000n * BigInt(idsAndAmounts.length),
      })
  }
  return { calls, methods }
}

function mintCall(token: TokenInfo, to: Address, amount: bigint, label: string): DevnetCall {
  return {
    label,
    to: token.address,
    data: encodeFunctionData({ abi: artifacts.DevnetERC20.abi, functionName: 'mint', args: [to, amount] }),
    gas: 100_000n,
  }
}

/**
 * Sets ERC-20 balances by writing `balanceOf[holder]` directly, for forked tokens the devnet
 * cannot mint. The mapping's slot is found by probing slots 0–19 (Solidity layout
 * `keccak256(holder ‖ slot)`) until `balanceOf` reads the probe back. Total supply is not
 * adjusted.
 */
async function writeBalances(
  chain: DevnetChain,
  writes: { token: TokenInfo; holder: Address; amount: bigint }[],
) {
  const slots = new Map<Address, bigint>()
  for (const token of new Set(writes.map((w) => w.token)))
    slots.set(token.address, await findBalanceSlot(chain, token.address))
  await Promise.all(
    writes.map((w) =>
      chain.testClient.setStorageAt({
        address: w.token.address,
        index: balanceKey(w.holder, slots.get(w.token.address)!),
        value: numberToHex(w.amount, { size: 32 }),
      }),
    ),
  )
}

const balanceKey = (holder: Address, slot: bigint) =>
  keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, slot]))

async function findBalanceSlot(chain: DevnetChain, token: Address): Promise<bigint> {
  const holder = '0x000000000000000000000000000000000000dEaD'
  const probeValue = 0x1234567890abcdefn
  for (let slot = 0n; slot < 20n; slot++) {
    const index = balanceKey(holder, slot)
    const before = await chain.publicClient.getStorageAt({ address: token, slot: index })
    await chain.testClient.setStorageAt({
      address: token,
      index,
      value: numberToHex(probeValue, { size: 32 }),
    })
    const read = await chain.publicClient
      .readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })
      .catch(() => undefined)
    await chain.testClient.setStorageAt({
      address: token,
      index,
      value: before ?? numberToHex(0, { size: 32 }),
    })
    if (read === probeValue) return slot
  }
  throw new BaseError(`Could not find the balance slot of token ${token} on chain ${chain.chainId}.`)
}
