import type { ChainStep } from '../../scenario/schema'
import { captureValues } from '../captures'
import { runChainAction } from '../chainActions'
import { interpolate } from '../interpolate'
import { applyMatcher, readPath } from '../matchers'
import type { StepRun } from './stepRun'

type ChainAction = ChainStep['chain']

/**
 * `chain`: carries out a chain action over viem (a transaction, a receipt or a balance to read)
 * and checks its outcome; `receipts` checks every transaction of a list the target reported.
 */
export async function chainStep(step: ChainStep, run: StepRun): Promise<void> {
  const { context, vars, check } = run
  // Check names name accounts and transactions as the scenario writes them, not by the values
  // they resolve to (a fresh account, a funded account the schedule lent it, a transaction
  // hash): the same check has the same name in every run, which baselines and `conformance diff`
  // match on. Messages carry the values.
  const raw = step.chain as Record<string, unknown>
  const action = interpolate(step.chain, vars)
  if (action.action === 'receipts') return checkReceipts(action, run)
  const result = await runChainAction(context.caps, action)
  if (action.action === 'readBalance') {
    const balance = result.balance?.toString()
    if (action.captureAs) vars[action.captureAs] = balance
    if (action.expect) {
      const outcome = applyMatcher({ found: true, value: balance }, action.expect)
      check(`balance ${String(raw.account)} on ${action.chainId}`, outcome.ok, {
        expected: action.expect,
        actual: balance,
        message: outcome.ok
          ? undefined
          : `balance of ${action.account} on chain ${action.chainId} ${outcome.message}`,
      })
    }
    return
  }
  if (action.action === 'receipt' || action.action === 'writeContract') {
    const ok = result.status === action.expectStatus
    const what =
      action.action === 'receipt'
        ? `receipt ${String(raw.hash)}`
        : `${action.functionName} on ${action.chainId}`
    const why = result.error ? `: ${result.error}` : ''
    check(what, ok, {
      expected: action.expectStatus,
      actual: result.status ?? 'not mined',
      message: ok
        ? undefined
        : result.status === undefined
          ? `transaction ${action.action === 'receipt' ? `${action.hash} ` : ''}is not mined on chain ${action.chainId}${why}`
          : `transaction ${result.hash} ${result.status}${why}`,
    })
  } else
    check(`${action.action} on ${action.chainId}`, result.status === 'success', {
      expected: 'success',
      actual: result.status,
      message: result.status === 'success' ? undefined : `transaction ${result.hash} reverted`,
    })
  captureValues(vars, step.capture, (field) => ({ found: true, value: result[field] }))
}

/** `receipts`: the list is non-empty, and each item's transaction is mined on its chain with the expected status. */
async function checkReceipts(
  action: Extract<ChainAction, { action: 'receipts' }>,
  run: StepRun,
): Promise<void> {
  const { context, check } = run
  const list = Array.isArray(action.transactions) ? action.transactions : []
  const listed = check('transactions', list.length > 0, {
    expected: 'a non-empty list of transactions',
    actual: action.transactions,
    message: list.length > 0 ? undefined : 'no transactions to check',
  })
  if (!listed) return
  for (const [i, item] of list.entries()) {
    const hash = readPath(item, action.hashField).value
    const chainId = readPath(item, action.chainIdField).value
    const result =
      typeof hash === 'string' && (typeof chainId === 'number' || typeof chainId === 'string')
        ? await runChainAction(context.caps, {
            action: 'receipt',
            chainId,
            hash,
            expectStatus: action.expectStatus,
            timeoutSeconds: action.timeoutSeconds,
          })
        : { status: undefined, error: `item ${i} has no ${action.hashField} and ${action.chainIdField}` }
    const ok = result.status === action.expectStatus
    const seen = `${String(hash)} on chain ${String(chainId)}`
    check(`receipt ${i}`, ok, {
      expected: action.expectStatus,
      actual: `${seen}: ${result.status ?? 'not mined'}`,
      message: ok
        ? undefined
        : `transaction ${seen} is ${result.status ?? 'not mined'}${result.error ? `: ${result.error}` : ''}`,
    })
  }
}
