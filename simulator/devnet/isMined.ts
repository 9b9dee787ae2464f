import type { Hash, PublicClient } from 'viem'

/**
 * Whether the chain holds a transaction (its receipt exists). Only a definite "no such receipt"
 * answers false; any other error is thrown, not taken as a verdict.
 *
 * @example
 * if (!(await isMined(chain.publicClient, hash))) rewind()
 */
export async function isMined(
  client: Pick<PublicClient, 'getTransactionReceipt'>,
  hash: Hash,
): Promise<boolean> {
  try {
    await client.getTransactionReceipt({ hash })
    return true
  } catch (error) {
    if ((error as Error).name === 'TransactionReceiptNotFoundError') return false
    throw error
  }
}
