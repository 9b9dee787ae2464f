import type { Address, Hash, Hex } from 'viem'

/** Deposit statuses this processor uses (a subset of the public service's). */
export type DepositStatus = 'processing' | 'completed' | 'rejected' | 'failed'

/** A deposit, as stored. */
export type DepositRecord = {
  seq: number
  tenantId: string
  id: string
  account: Address
  chainId: number
  token: Address
  symbol: string | null
  amount: string
  sender: Address
  transactionHash: Hash
  blockNumber: string
  logIndex: number | null
  status: DepositStatus
  errorCode?: string
  message?: string
  target?: {
    chainId: number
    token: Address
    symbol: string
    amount: string
    grossAmount: string
    fees: { gas: string; bridging: string }
    gasSponsored: boolean
    bridgingSponsored: boolean
  }
  bridgeTransactionHash?: Hash
  /**
   * The payout transaction as signed, recorded before it is broadcast (internal, never shown): a
   * restart finds it on chain or broadcasts it again, and never sends a second payout.
   */
  bridgeRawTransaction?: Hex
  createdAt: string
  updatedAt: string
}

/** A deposit as the API shows it: the record without its internal fields. */
export type DepositView = Omit<DepositRecord, 'seq' | 'tenantId' | 'bridgeRawTransaction'>
