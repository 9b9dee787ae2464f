import type {
  BatchWithdrawalRequest,
  BatchWithdrawalResponse,
  WithdrawalRequest,
  WithdrawalResponse,
} from '../../spec'

/** Allocator signatures for withdrawals from the Compact. */
export interface WithdrawalService {
  withdraw(request: WithdrawalRequest): Promise<WithdrawalResponse>
  batchWithdraw(request: BatchWithdrawalRequest): Promise<BatchWithdrawalResponse>
}
