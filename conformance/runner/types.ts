/** The outcome of one check. */
export type CheckStatus = 'passed' | 'failed'

/** An excerpt of an HTTP exchange, kept in reports (bodies cut to a few KB). */
export type HttpExcerpt = {
  request: { method: string; url: string; headers: Record<string, string>; body?: string | undefined }
  response?: { status: number; headers: Record<string, string>; body: string } | undefined
  error?: string | undefined
}

/** One check a step made: what it enforces, what was expected, what was seen. */
export type CheckResult = {
  /** Stable id, `<scenario id>/<step number>/<check>`; baselines name checks by it. */
  id: string
  scenarioId: string
  /** 1-based step number. */
  step: number
  /** What was checked, e.g. `status`, `header x-trace-id`, `body /code`. */
  name: string
  /** The spec section the check enforces. */
  spec: string
  /** MUST (the spec states it; fails certification) or SHOULD (fails only a `--strict` run); absent means MUST. */
  level?: 'MUST' | 'SHOULD' | undefined
  status: CheckStatus
  expected?: unknown
  actual?: unknown
  message?: string | undefined
  exchange?: HttpExcerpt | undefined
  /** Set by the baseline: a failure it expects, or an expected failure that now passes. */
  baseline?: 'expected-failure' | 'now-passes' | undefined
}

/** The outcome of one scenario. */
export type ScenarioStatus = 'passed' | 'failed' | 'not-applicable'

export type ScenarioResult = {
  id: string
  title: string
  pack: string
  file: string
  spec: string
  status: ScenarioStatus
  /** Why the scenario is not applicable, or why it stopped early. */
  reason?: string | undefined
  checks: CheckResult[]
  durationMs: number
  /** When it started, ms after the run started (the run's timeline: {@link RunTiming}). */
  startMs?: number | undefined
  /** How long each step took, ms, in order (steps, then cleanup); a step not run took 0. */
  stepsMs?: number[] | undefined
  /** For a scenario that sets per-key state: which key it used, or that it ran alone on the run's key. */
  keyState?: string | undefined
  /**
   * What the runner did that is not a check of the target: its own setup (funding, approvals,
   * transfers: never counted as passes) and steps a `when` left out.
   */
  notes?: string[] | undefined
  /** Steps of the other version that `--version` left out, e.g. "step 1 not run: alps, and the run is --version blanc". */
  stepsNotRun?: string | undefined
}

/** What the runner found out about the target before running. */
export type TargetCapabilities = {
  target: string
  /** `GET /_devnet/manifest` answers with a manifest (clock, chains, accounts). */
  controlApi: boolean
  /** `GET /_devnet/faults` answers: the target is an intent-devnet and faults can be injected. */
  faults: boolean
  chains: { chainId: number; rpcUrl: string }[]
  /** Private keys of funded accounts (from the manifest or the `--chains` file). */
  accounts: `0x${string}`[]
  versions: ('alps' | 'blanc')[]
  /** The quote lifetime the target advertises (manifest), in seconds. */
  quoteTtlSeconds?: number | undefined
  /** Domain features by requirement name; false when the target answers 501 NOT_IMPLEMENTED. */
  implemented: { quotes?: boolean; settlement?: boolean; withdrawals?: boolean; deposits?: boolean }
  /** Whether the runner's loopback webhook receiver is reachable from the target. */
  webhooks: boolean
  /** Raw `GET /_devnet/manifest` body, when there was one. */
  manifest?: unknown
  /** Named contract addresses from the manifest (e.g. `compact`), for `${contracts.compact}`. */
  contracts: Record<string, string>
  /** Token addresses by `<chainId>.<SYMBOL>` (manifest or `--chains` file), for `${tokens.8453.USDC}`. */
  tokens: Record<string, string>
  /** What the runner learned of the target's paths and fields (learnProfile.ts): notes, and hints for the vendor. */
  learned?:
    | {
        unversioned?: 'spec' | 'mapped' | undefined
        /** Request fields the target takes as CAIP-2 chain ids, by route (learnProfile.ts). */
        caip2Request?:
          | { route: string; version?: 'alps' | 'blanc' | undefined; pointers: string[] }[]
          | undefined
        notes: string[]
        hints: string[]
      }
    | undefined
  /** Run variables neither the manifest nor `--chains` gave, filled with canonical addresses (runInputs.ts), e.g. `tokens.10.USDC`. */
  canonicalDefaults?: string[] | undefined
}

/** What makes two reports comparable: who ran what, against what, when. */
export type RunMetadata = {
  /** The runner's version (package.json of intent-devnet). */
  runnerVersion: string
  /** sha256 of the scenarios run (ids and content, sorted by id): same digest, same checks. */
  packDigest: string
  target: string
  /** The paths the target serves (`--profile`): `spec` (the spec's own), `public`, or a profile file's name and file. */
  profile: string
  /** The API versions the run really exercised (scenarios that ran, not the not-applicable ones). */
  versions: ('alps' | 'blanc')[]
  /** ISO date of the run's start. */
  date: string
  /** Every mapping the profile applied (a path, CAIP-2 chain ids, header-less requests), each once. */
  mappings?: string[] | undefined
}

export type RunSummary = {
  scenarios: { total: number; passed: number; failed: number; notApplicable: number }
  checks: { total: number; passed: number; failed: number; expectedFailures: number; nowPassing: number }
  /** Checks by grade: MUST failures fail certification, SHOULD failures only a `--strict` run. */
  levels: { must: { passed: number; failed: number }; should: { passed: number; failed: number } }
  /** `--strict`: SHOULD failures count as unexpected too. */
  strict: boolean
  /** Failures the baseline does not expect, plus baseline entries that now pass. */
  unexpected: number
  durationMs: number
}

/**
 * Where a run's time went, ms after it started: the target up (its own simulator started, or
 * at once with --target), its capabilities detected, the first scenario started, the last
 * scenario that must run alone done with what made it so (later scenarios may start beside
 * its rest), and the last scenario finished.
 */
export type RunTiming = {
  targetReadyMs: number
  capabilitiesMs: number
  firstScenarioMs: number
  aloneDoneMs: number | undefined
  lastScenarioMs: number
  /** The runner process's CPU time (user + system, ms, since it started; not its children's) when the first scenario started, and when the last ended. */
  cpu: { firstScenarioMs: number; lastScenarioMs: number }
}

/** The whole run: what every reporter renders. */
export type RunResult = {
  target: string
  /** Runner version, pack digest, profile, versions exercised and date: what makes two reports comparable. */
  metadata: RunMetadata
  startedAt: string
  shard?: { index: number; total: number } | undefined
  capabilities: TargetCapabilities
  scenarios: ScenarioResult[]
  summary: RunSummary
  /** Baseline entries that named a check or scenario that now passes. */
  staleBaseline: string[]
  /** Where the run's time went (absent in reports of older runs). */
  timing?: RunTiming | undefined
}
