import { setTimeout as sleep } from 'node:timers/promises'
import type { ChainStep } from '../../scenario/schema'
import { captureValues } from '../captures'
import { runChainAction } from '../chainActions'
import { interpolate } from '../interpolate'
import { applyMatcher, readPath } from '../matchers'
import { NotApplicableError } from '../notApplicableError'
import type { RecordCheck } from '../recordCheck'
import { chainIdOf, firstRead, forgetReadsAhead } from './readAhead'
import { type StepRun, seconds } from './stepRun'

/**
 * How often a balance awaited (`withinSeconds`) is read again, at most. 100 ms rather than 250:
 * a payout the balance waits for lands ~0.1-0.3 s after the deposit, and a read past it waited up
 * to 250 ms more, in deposits.bridge-5-default while nothing else runs (the alone phase); a read
 * is one eth_call.
 */
const BALANCE_POLL_MS = 100
/** The first pause of a balance awaited; each next one doubles, up to {@link BALANCE_POLL_MS}. */
const FIRST_BALANCE_POLL_MS = 25

type ChainAction = ChainStep['chain']

/**
 * The runner's own actions: it funds, approves and deposits for the accounts it acts as. They
 * are setup, not checks of the target: none counts as a pass, and one that fails makes the
 * scenario not applicable, saying why.
 */
const SETUP_ACTIONS: ReadonlySet<ChainAction['action']> = new Set([
  'transfer',
  'approve',
  'depositCompact',
  'sendTransaction',
  'deploy',
])

type SetupAction = Extract<
  ChainAction,
  { action: 'transfer' | 'approve' | 'depositCompact' | 'sendTransaction' | 'deploy' }
>
const isSetup = (action: ChainAction): action is SetupAction => SETUP_ACTIONS.has(action.action)

/**
 * `chain`: carries out a chain action over viem (a transaction, a receipt or a balance to read)
 * and checks its outcome; `receipts` checks every transaction of a list the target reported.
 */
export async function chainStep(step: ChainStep, run: StepRun): Promise<void> {
  const { context, vars } = run
  // Check names name accounts and transactions as the scenario writes them, not by the values
  // they resolve to (a fresh account, a funded account the schedule lent it, a transaction
  // hash): the same check has the same name in every run, which baselines and `conformance diff`
  // match on. Messages carry the values.
  const raw = step.chain as Record<string, unknown>
  if (step.when !== undefined && !Object.hasOwn(vars, step.when)) {
    run.note(
      `${step.name ?? `${step.chain.action} on ${String(raw.chainId)}`}: left out, the answer carried no \${${step.when}}`,
    )
    return
  }
  const action = interpolate(step.chain, vars)
  const check: RecordCheck = (name, ok, details, spec) =>
    run.check(name, ok, { ...details, level: step.level ?? details?.level }, spec)
  if (action.action === 'receipts') return checkReceipts(action, { ...run, check })
  action.chainId = chainIdOf(action.chainId)
  if (isSetup(action)) return setup(step, action, run)
  if (action.action === 'smartAccount') {
    // The runner's own set-up, like a transfer: a target whose chains lack the factory is not applicable.
    let result: Awaited<ReturnType<typeof runChainAction>>
    try {
      result = await runChainAction(context.caps, action)
    } catch (error) {
      const why = error instanceof Error ? error.message.split('\n')[0] : String(error)
      throw new NotApplicableError(
        `the runner's setup failed: ${step.name ?? 'smartAccount'} (smart account on chain ${action.chainId}): ${why}`,
      )
    }
    vars[action.captureAs] = result.value
    run.note(
      `setup: smart account ${(result.value as { address: string }).address} on chain ${action.chainId}`,
    )
    return
  }
  if (action.action === 'readBalance') {
    const started = Date.now()
    const until = Math.min(run.deadline, started + (action.withinSeconds ?? 0) * 1000)
    let balance: string | undefined
    let outcome: ReturnType<typeof applyMatcher> = { ok: true }
    for (let attempt = 0; ; attempt++) {
      // Read again: the reads made ahead of the next steps are older than this one.
      if (attempt === 1) forgetReadsAhead(run)
      balance = (
        await (attempt === 0 ? firstRead(step, action, run) : runChainAction(context.caps, action))
      ).balance?.toString()
      if (action.expect) outcome = applyMatcher({ found: true, value: balance }, action.expect)
      // Soon at first (a payout often lands within milliseconds), then less often.
      const pause = Math.min(BALANCE_POLL_MS, FIRST_BALANCE_POLL_MS * 2 ** attempt)
      if (outcome.ok || Date.now() + pause > until) break
      await sleep(pause)
    }
    if (action.captureAs) vars[action.captureAs] = balance
    if (action.expect)
      check(`balance ${String(raw.account)} on ${action.chainId}`, outcome.ok, {
        expected: action.expect,
        actual: balance,
        message: outcome.ok
          ? undefined
          : `balance of ${action.account} on chain ${action.chainId} ${outcome.message}${
              action.withinSeconds ? ` (still, after ${seconds(Date.now() - started)})` : ''
            }`,
      })
    return
  }
  const result = await (action.action === 'readContract'
    ? firstRead(step, action, run)
    : runChainAction(context.caps, action))
  if (action.action === 'readContract') {
    const { value } = result
    if (action.captureAs) vars[action.captureAs] = value
    if (action.expect) {
      const outcome = applyMatcher({ found: true, value }, action.expect)
      const call = `${action.functionName}(${(raw.args as unknown[] | undefined)?.map(String).join(', ') ?? ''})`
      check(`${call} of ${String(raw.address)} on ${action.chainId}`, outcome.ok, {
        expected: action.expect,
        actual: value,
        message: outcome.ok
          ? undefined
          : `${action.functionName} of ${action.address} on chain ${action.chainId} ${outcome.message}`,
      })
    }
    return
  }
  {
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
  }
  captureValues(vars, step.capture, (field) => ({ found: true, value: result[field] }))
}

/**
 * One of the runner's own actions (a transfer, an approval, a deposit): noted in the report as
 * setup; when it fails, the scenario is not applicable (its premise could not be made).
 */
async function setup(step: ChainStep, action: SetupAction, run: StepRun): Promise<void> {
  const what = `${step.name ?? action.action} (${action.action} on chain ${action.chainId})`
  let result: Awaited<ReturnType<typeof runChainAction>>
  try {
    result = await runChainAction(run.context.caps, action)
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error)
    throw new NotApplicableError(`the runner's setup failed: ${what}: ${why}`)
  }
  if (result.status !== 'success')
    throw new NotApplicableError(
      `the runner's setup failed: ${what}: transaction ${result.hash ?? ''} ${result.status ?? 'not mined'}${result.error ? `: ${result.error}` : ''}`,
    )
  run.note(`setup: ${what}, transaction ${result.hash}`)
  captureValues(run.vars, step.capture, (field) => ({ found: true, value: result[field] }))
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
  // Looked up side by side (the transport batches the first look of each), checked in order, as
  // when they were looked up one after the other.
  const items = list.map((item) => ({
    hash: readPath(item, action.hashField).value,
    chainId: readPath(item, action.chainIdField).value,
  }))
  const results = await Promise.allSettled(
    items.map(({ hash, chainId }, i) =>
      typeof hash === 'string' && (typeof chainId === 'number' || typeof chainId === 'string')
        ? runChainAction(context.caps, {
            action: 'receipt',
            chainId,
            hash,
            expectStatus: action.expectStatus,
            timeoutSeconds: action.timeoutSeconds,
          })
        : { status: undefined, error: `item ${i} has no ${action.hashField} and ${action.chainIdField}` },
    ),
  )
  for (const [i, { hash, chainId }] of items.entries()) {
    const settled = results[i] as PromiseSettledResult<Awaited<ReturnType<typeof runChainAction>>>
    // A look-up that threw fails the step there, after the checks of the items before it.
    if (settled.status === 'rejected') throw settled.reason
    const result = settled.value
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
