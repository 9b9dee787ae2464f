import { type Address, type Chain, getAddress, type Hex, type PublicClient, type Transport } from 'viem'
import { addresses, type TokenInfo, tokensByChain } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { toLockId } from '../../lib/lockTag'
import type {
  BatchWithdrawalRequest,
  BatchWithdrawalResponse,
  WithdrawalRequest,
  WithdrawalResponse,
} from '../../spec/index'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import type { Allocator } from '../signing/allocator'
import type { Clock } from '../util/clock'
import { InsufficientLockedBalanceError, UnknownChainError, UnknownTokenError } from './errors'
import type { WithdrawalService } from './types'

/** How long an allocator signature for a withdrawal stays valid. */
export const WITHDRAWAL_TTL_SECONDS = 600

/**
 * Lock ids, nonces and raw amounts exceed 2^53: they are answered as decimal strings (the
 * response schema accepts numbers or integer strings), never as lossy JSON numbers.
 */
const int = (value: bigint) => value.toString()

/** Parameters of {@link createWithdrawalService}. */
export type CreateWithdrawalServiceParameters = {
  allocator: Allocator
  clients: Record<number, PublicClient<Transport, Chain>>
  clock: Clock
  tokens?: Record<number, readonly TokenInfo[]> | undefined
  /**
   * Whether a withdrawal of `amount` exceeds the lock's `balance` (default: above it; the bound is
   * inclusive); the composition root may decorate it (simulator/faultInjection/withdrawals.ts).
   */
  exceeds?: ((amount: bigint, balance: bigint) => boolean) | undefined
}

/**
 * `POST /withdrawals` and `POST /batch-withdrawals`: checks the account's lock balance, then
 * answers the allocator's signature and the transfer to submit as `allocatedTransfer` /
 * `allocatedBatchTransfer` from the account. Claimant = the recipient with lock tag 0, so the
 * recipient receives the underlying token.
 */
export function createWithdrawalService(parameters: CreateWithdrawalServiceParameters): WithdrawalService {
  const { allocator, clients, clock } = parameters
  const tokens = parameters.tokens ?? tokensByChain
  const exceeds = parameters.exceeds ?? ((amount: bigint, balance: bigint) => amount > balance)

  function clientOf(chainId: number) {
    const client = clients[chainId]
    if (!client) throw new UnknownChainError(chainId, Object.keys(clients))
    return client
  }
  function tokenOf(chainId: number, address: string) {
    clientOf(chainId) // a chain the devnet does not run is named as such, not as an unknown token
    const token = (tokens[chainId] ?? []).find((t) => t.address.toLowerCase() === address.toLowerCase())
    if (!token && BigInt(address) !== 0n) throw new UnknownTokenError(chainId, address)
    return getAddress(address) as Address
  }

  async function checkBalances(chainId: number, account: Address, wanted: Map<bigint, bigint>) {
    const client = clientOf(chainId)
    const ids = [...wanted.keys()]
    const balances = await client.multicall({
      contracts: ids.map(
        (id) =>
          ({
            address: addresses.compact,
            abi: artifacts.TheCompact.abi,
            functionName: 'balanceOf',
            args: [account, id],
          }) as const,
      ),
      allowFailure: false,
      multicallAddress: addresses.multicall3,
    })
    const short = ids.flatMap((id, i) => {
      const balance = balances[i] as bigint
      const amount = wanted.get(id) as bigint
      const over = exceeds(amount, balance)
      return over ? [{ id: int(id), requested: int(amount), balance: int(balance) }] : []
    })
    if (short.length) throw new InsufficientLockedBalanceError(short)
  }

  /**
   * Checks the balances and issues the allocator's nonce, their reads side by side (one round trip
   * on the devnet's batching transport); a balance short is the answer even when the nonce failed
   * too, as when they were read one after the other. A nonce issued for a refused request is
   * never used (it is random; the allocator only remembers it).
   */
  async function balancesThenNonce(chainId: number, account: Address, wanted: Map<bigint, bigint>) {
    const nonce = allocator.issueNonce(chainId)
    nonce.catch(() => undefined)
    await checkBalances(chainId, account, wanted)
    return nonce
  }

  const claimant = (recipient: string) => BigInt(getAddress(recipient))
  const lockTag = DEVNET_LOCK_TAG

  return {
    async withdraw(request: WithdrawalRequest): Promise<WithdrawalResponse> {
      const chainId = Number(request.chainId)
      const account = getAddress(request.account)
      const id = toLockId(lockTag, tokenOf(chainId, request.tokenAddress))
      const amount = BigInt(request.amount)
      const nonce = await balancesThenNonce(chainId, account, new Map([[id, amount]]))
      const expires = BigInt(clock.now() + WITHDRAWAL_TTL_SECONDS)
      const allocatorData = await allocator.signTransfer({
        chainId,
        account,
        nonce,
        expires,
        commitments: [{ lockTag, token: getAddress(request.tokenAddress), amount }],
        batch: false,
      })
      return {
        allocatorData,
        transferDetails: {
          id: int(id),
          nonce: int(nonce),
          expires: int(expires),
          recipients: [{ claimant: int(claimant(request.recipient)), amount: int(amount) }],
        },
      }
    },
    async batchWithdraw(request: BatchWithdrawalRequest): Promise<BatchWithdrawalResponse> {
      const chainId = Number(request.chainId)
      const account = getAddress(request.account)
      const byId = new Map<bigint, { token: Address; portions: { claimant: bigint; amount: bigint }[] }>()
      for (const t of request.transfers) {
        const token = tokenOf(chainId, t.tokenAddress)
        const id = toLockId(lockTag, token)
        const entry = byId.get(id) ?? { token, portions: [] }
        entry.portions.push({ claimant: claimant(t.recipient), amount: BigInt(t.amount) })
        byId.set(id, entry)
      }
      const totals = new Map([...byId].map(([id, e]) => [id, e.portions.reduce((s, p) => s + p.amount, 0n)]))
      const nonce = await balancesThenNonce(chainId, account, totals)
      const expires = BigInt(clock.now() + WITHDRAWAL_TTL_SECONDS)
      const commitments = [...byId].map(([id, e]) => ({
        lockTag,
        token: e.token,
        amount: totals.get(id) as bigint,
      }))
      const allocatorData = await allocator.signTransfer({
        chainId,
        account,
        nonce,
        expires,
        commitments,
        batch: true,
      })
      return {
        allocatorData,
        batchTransferDetails: {
          nonce: int(nonce),
          expires: int(expires),
          transfers: [...byId].map(([id, e]) => ({
            id: int(id),
            portions: e.portions.map((p) => ({ claimant: int(p.claimant), amount: int(p.amount) })),
          })),
        },
      }
    },
  }
}
