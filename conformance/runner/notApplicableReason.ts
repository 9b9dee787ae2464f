import type { LoadedScenario } from '../scenario/loadScenarios'
import type { Requirement } from '../scenario/schema'
import { missingInput } from './runInputs'
import type { ScenarioContext } from './scenarioContext'
import { scenarioClaims } from './schedule'
import { VERSION_HEADERS } from './versionHeaders'

/** Why the target cannot run a scenario, or undefined when it can. */
export function notApplicableReason(scenario: LoadedScenario, context: ScenarioContext): string | undefined {
  const { caps } = context
  const version = scenario.requires.version
  if (version && context.version && version !== context.version)
    return `the scenario speaks ${version}; this run is restricted to --version ${context.version}`
  if (version && !caps.versions.includes(version))
    return `the target does not serve ${VERSION_HEADERS[version]}`
  // A domain endpoint the target lacks (404, 501) is a failure of the scenario, never a reason to skip it.
  const missing: Partial<Record<Requirement, string | undefined>> = {
    devnet: caps.faults ? undefined : 'the target is not an intent-devnet (no /_devnet/ endpoints)',
    'control-api': caps.controlApi
      ? undefined
      : 'the target has no devnet control API (GET /_devnet/manifest)',
    faults: caps.faults ? undefined : 'the target cannot inject faults (no POST /_devnet/faults)',
    chains: caps.chains.length > 0 ? undefined : 'no chain RPC URLs (no manifest and no --chains file)',
    webhooks: caps.webhooks
      ? undefined
      : 'the target is not on loopback and no --webhook-url or --webhook-host says where it can reach the webhook receiver',
  }
  for (const requirement of scenario.requires.capabilities) {
    const reason = missing[requirement]
    if (reason) return reason
  }
  // The funded accounts it names (`${accounts.N.…}`, `from: N`): the run has them from the
  // manifest or the --chains file; without them its requests cannot even be written.
  const highest = Math.max(-1, ...scenarioClaims(scenario).uses)
  if (highest >= caps.accounts.length)
    return `it uses funded account ${highest} and the run has ${caps.accounts.length === 0 ? 'none' : `only ${caps.accounts.length}`} (no manifest, and no accounts in a --chains file): add funded private keys under accounts in --chains`
  // Every run variable it names, every chain it acts on: a gap in the run's configuration is
  // never the target's failure.
  return missingInput(scenario, caps)
}
