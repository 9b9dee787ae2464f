import type { LoadedScenario } from '../scenario/loadScenarios'
import type { Step } from '../scenario/schema'

/**
 * What a scenario holds while it runs, so that scenarios run side by side cannot change each
 * other's verdicts. Derived from its steps ({@link scenarioClaims}).
 */
export type ScenarioClaims = {
  /** Why it runs with no other scenario beside it (it changes what every scenario sees), or undefined. */
  alone: string | undefined
  /** It sets state of its API key (the deposit processor's configuration): one such scenario per key at a time. */
  keyState: boolean
  /** Funded accounts (by index) it acts as beyond funding others (signs as, quotes and settles for, moves funds of): one scenario at a time each. */
  actsAs: number[]
  /** Funded accounts it only names in HTTP requests (a quote, a withdrawal to sign): shared with other readers, never beside one acting as it. */
  reads: number[]
}

/**
 * The claims of a scenario: alone when it advances the clock, injects faults, changes the
 * control API's state (any `/_devnet/` request but a GET: prices, snapshots, …) or sends an
 * oversized body (its verdict depends on the target answering before the body is sent);
 * per-key state when it posts `/deposit-processor/setup`; the funded accounts it acts as or
 * reads. A plain transfer from a funded account (funding a fresh one) claims nothing: the
 * runner sends one transaction per account at a time (chainActions).
 */
export function scenarioClaims(scenario: LoadedScenario): ScenarioClaims {
  const steps: Step[] = [...scenario.steps, ...scenario.cleanup]
  let alone: string | undefined
  if (scenario.requires.capabilities.includes('faults')) alone = 'it injects faults'
  const named = new Set<number>()
  const acts = new Set<number>()
  let httpOnly = true
  for (const step of steps) {
    for (const match of JSON.stringify(step).matchAll(/\$\{accounts\.(\d+)\./g)) named.add(Number(match[1]))
    if ('clock' in step) alone ??= 'it advances the clock'
    else if ('fault' in step) alone ??= 'it injects faults'
    else if ('http' in step) {
      if (step.http.path.startsWith('/_devnet/') && step.http.method !== 'GET')
        alone ??= `it changes the target's state (${step.http.method} ${step.http.path})`
      if (step.http.oversizeBytes !== undefined)
        alone ??= 'it sends an oversized body (the answer must come before the body is sent)'
    } else if ('wait' in step || 'patch' in step) {
      // Neither talks to the target.
    } else {
      httpOnly = false
      if ('sign' in step && typeof step.sign.account === 'number') acts.add(step.sign.account)
      if ('signIntentOp' in step && typeof step.signIntentOp.account === 'number')
        acts.add(step.signIntentOp.account)
      if ('chain' in step && 'from' in step.chain && typeof step.chain.from === 'number')
        if (step.chain.action !== 'transfer') acts.add(step.chain.from)
    }
  }
  for (const index of named) if (!httpOnly) acts.add(index)
  return {
    alone,
    keyState: setsKeyState(scenario),
    actsAs: [...acts].sort(),
    reads: httpOnly ? [...named].filter((index) => !acts.has(index)).sort() : [],
  }
}

/** Whether a scenario sets state that belongs to its API key (the deposit processor's configuration). */
export function setsKeyState(scenario: LoadedScenario): boolean {
  return [...scenario.steps, ...scenario.cleanup].some(
    (step) =>
      'http' in step && step.http.path.startsWith('/deposit-processor/setup') && step.http.method === 'POST',
  )
}

/**
 * A rough cost of a scenario, to start the longest first: its waits, polls, webhooks and chain
 * steps (real waits on the target) weigh most.
 */
export function estimatedCost(scenario: LoadedScenario): number {
  let cost = 0
  for (const step of [...scenario.steps, ...scenario.cleanup]) {
    if ('wait' in step) cost += step.wait
    else if ('http' in step) cost += step.poll ? 1000 : 10
    else if ('webhook' in step) cost += 500
    else if ('chain' in step) cost += 100
    else cost += 5
  }
  return cost
}

/** Parameters of {@link runScheduled}. */
export type RunScheduledParameters = {
  scenarios: readonly LoadedScenario[]
  /** Most scenarios in flight at once (at least 1; 1 runs them one at a time). */
  concurrency: number
  /** Keys per-key-state scenarios take, one scenario per key at a time (at least one). */
  keys: readonly string[]
  /** Runs scenario `index`; `key` is the key it holds when it sets per-key state. */
  run: (index: number, key: string | undefined) => Promise<void>
}

/**
 * Runs scenarios side by side as their claims allow: first those that must run alone, one at a
 * time in pack order, then the others, longest first, up to `concurrency` at once, each
 * per-key-state scenario on a key no other running scenario holds and each funded account
 * acted as by one scenario at a time (readers share it).
 *
 * @example
 * await runScheduled({ scenarios, concurrency: 8, keys: [apiKey], run: (index, key) => … })
 */
export async function runScheduled(parameters: RunScheduledParameters): Promise<void> {
  const { scenarios, keys, run } = parameters
  const concurrency = Math.max(1, parameters.concurrency)
  const claims = scenarios.map(scenarioClaims)
  const indexes = scenarios.map((_, index) => index)
  const alone = indexes.filter((index) => claims[index]!.alone !== undefined)
  const costs = scenarios.map(estimatedCost)
  const others = indexes
    .filter((index) => claims[index]!.alone === undefined)
    .sort((a, b) => costs[b]! - costs[a]! || a - b)
  const pending = [...alone, ...others]
  const running = new Set<number>()
  const freeKeys = [...keys]
  const heldKey = new Map<number, string>()

  const canStart = (index: number): boolean => {
    const claim = claims[index]!
    if (claim.alone !== undefined) return running.size === 0
    if (running.size >= concurrency) return false
    if (claim.keyState && freeKeys.length === 0) return false
    for (const other of running) {
      const held = claims[other]!
      if (held.alone !== undefined) return false
      if (claim.actsAs.some((a) => held.actsAs.includes(a) || held.reads.includes(a))) return false
      if (claim.reads.some((a) => held.actsAs.includes(a))) return false
    }
    return true
  }

  await new Promise<void>((resolve, reject) => {
    let failed = false
    const dispatch = () => {
      if (failed) return
      if (pending.length === 0 && running.size === 0) return resolve()
      for (let i = 0; i < pending.length; i++) {
        const index = pending[i]!
        if (!canStart(index)) {
          // One that must run alone waits for the others to finish; none passes it meanwhile.
          if (claims[index]!.alone !== undefined) break
          continue
        }
        pending.splice(i--, 1)
        running.add(index)
        const key = claims[index]!.keyState ? freeKeys.shift() : undefined
        if (key !== undefined) heldKey.set(index, key)
        run(index, key).then(
          () => {
            running.delete(index)
            const held = heldKey.get(index)
            if (held !== undefined) {
              heldKey.delete(index)
              freeKeys.push(held)
            }
            dispatch()
          },
          (error) => {
            failed = true
            reject(error)
          },
        )
        if (claims[index]!.alone !== undefined) break
      }
    }
    dispatch()
  })
}
