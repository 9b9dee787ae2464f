import { BaseError } from '../../spec/BaseError'

const docsPath = 'docs/devnet.md'

/** The withdrawal names a chain this devnet does not run. */
export class UnknownChainError extends BaseError {
  override name = 'Withdrawal.UnknownChainError'
  constructor(chainId: number, running: readonly string[]) {
    super(`Chain ${chainId} is not run by this devnet (chains: ${running.join(', ')}).`, {
      data: { chainId },
      docsPath,
    })
  }
}

/** The withdrawal names a token this devnet does not know on that chain. */
export class UnknownTokenError extends BaseError {
  override name = 'Withdrawal.UnknownTokenError'
  constructor(chainId: number, tokenAddress: string) {
    super(`Unknown token ${tokenAddress} on chain ${chainId}.`, { data: { chainId, tokenAddress }, docsPath })
  }
}

/** One resource lock that holds less than the withdrawal asks. */
export type LockShortfall = { id: string; requested: string; balance: string }

/** The account's locks hold less than the withdrawal asks; nothing was signed. */
export class InsufficientLockedBalanceError extends BaseError {
  override name = 'Withdrawal.InsufficientLockedBalanceError'
  constructor(insufficient: readonly LockShortfall[]) {
    super(
      `Withdrawal exceeds the locked balance: ${insufficient.map((s) => `lock ${s.id} holds ${s.balance}, asked ${s.requested}`).join('; ')}.`,
      { data: { insufficient }, docsPath },
    )
  }
}
