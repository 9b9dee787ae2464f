/**
 * The conformance suite's public entry point (`import { runConformance } from
 * 'intent-devnet/conformance'`): load scenario packs, run them against any target, write reports.
 */

export { REPORTERS, type ReporterName, writeReports } from './reporters'
export { detectCapabilities, TargetUnreachableError } from './runner/detectCapabilities'
export { type RunConformanceParameters, runConformance, summarize } from './runner/runConformance'
export { parseShard, type Shard, selectShard } from './runner/shard'
export type { CheckResult, RunResult, RunSummary, ScenarioResult, TargetCapabilities } from './runner/types'
export { startWebhookReceiver, verifyWebhookSignature, type WebhookReceiver } from './runner/webhookReceiver'
export {
  type LoadedScenario,
  loadScenarios,
  parseScenario,
  ScenarioFileError,
} from './scenario/loadScenarios'
