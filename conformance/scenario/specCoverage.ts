import type { LoadedScenario } from './loadScenarios'

/** A rule of the spec (a row of its Limits, Errors, Versioning, Authentication, Events, States or Endpoints parts). */
export type SpecRule = {
  /** Where the rule is, in the spec's own headings. */
  rule: string
  /** Matches the `spec:` of the scenarios that enforce it. */
  citedBy: RegExp
}

/**
 * The spec's checkable rules. Rules the spec leaves open ("not shown": status values after
 * PENDING, the dry-run consequence, the webhook signature's exact content) and rules about how
 * versions are released (Versioning 4–7) or about clients are not checkable against a target and
 * are not listed.
 */
export const SPEC_RULES: readonly SpecRule[] = [
  {
    rule: 'Limits › preClaimExecutions operations per chain (max 10)',
    citedBy: /Limits \(preClaimExecutions operations/,
  },
  { rule: 'Limits › preClaimExecutions chains (max 5)', citedBy: /Limits \(preClaimExecutions chains/ },
  { rule: 'Limits › minAmount / maxAmount (inclusive bounds)', citedBy: /BALANCE-3/ },
  {
    rule: 'Limits › maxPriceDeviationBps (default 200)',
    citedBy: /Limits \(maxPriceDeviationBps, default 200\)/,
  },
  { rule: 'Errors › TOKEN-3', citedBy: /TOKEN-3/ },
  { rule: 'Errors › BALANCE-3', citedBy: /BALANCE-3/ },
  { rule: 'Errors › BRIDGE-5', citedBy: /BRIDGE-5/ },
  { rule: 'Errors › HTTP 404 (expired or lost blanc quote)', citedBy: /Errors \(HTTP 404\)/ },
  { rule: 'Errors › rejection without x-api-version', citedBy: /Versioning §2/ },
  { rule: 'Versioning 1 (x-api-version format)', citedBy: /Versioning §1/ },
  { rule: 'Versioning 2 (missing header: served or rejected)', citedBy: /Versioning §2/ },
  { rule: 'Versioning 3 (2026-01.alps and 2026-04.blanc)', citedBy: /Versioning §1, §3|Versioning §3/ },
  {
    rule: 'Versioning › Differences (Submit paths)',
    citedBy: /Differences between alps and blanc \(Submit\)/,
  },
  { rule: 'Versioning › Differences (Signing)', citedBy: /Differences between alps and blanc › Signing/ },
  { rule: 'Authentication 1 (x-api-key required)', citedBy: /Authentication (§)?1/ },
  { rule: 'Authentication 2 (X-Webhook-Signature, HMAC-SHA256)', citedBy: /X-Webhook-Signature/ },
  { rule: 'Events › bridge-failed', citedBy: /Errors \((TOKEN|BALANCE|BRIDGE)-/ },
  {
    rule: 'States and transitions 3 (expired quote → 404, re-quote)',
    citedBy: /States and transitions, rule 3/,
  },
  {
    rule: 'Endpoints › POST /intents/route',
    citedBy: /Route response|Version blanc route shape|Route request/,
  },
  { rule: 'Endpoints › POST /intent-operations (alps)', citedBy: /POST \/intent-operations/ },
  {
    rule: 'Endpoints › POST /intents/{intentId}/submit (blanc)',
    citedBy: /POST \/intents\/\{intentId\}\/submit/,
  },
  { rule: 'Endpoints › POST /withdrawals', citedBy: /Withdrawal \(single\)/ },
  { rule: 'Endpoints › POST /batch-withdrawals', citedBy: /Withdrawal \(batch\)|\(single\), \(batch\)/ },
  { rule: 'Endpoints › POST /deposit-processor/setup', citedBy: /POST \/deposit-processor\/setup/ },
  {
    rule: 'Endpoints › POST /deposit-processor/setup (partial update: omitted fields keep their value)',
    citedBy: /omitted fields keep their current value/,
  },
  {
    rule: 'Endpoints › POST /deposit-processor/setup (null and {} clear each field)',
    citedBy: /To clear a field, send null/,
  },
]

/** Each rule of the spec beside the scenarios that enforce it (none: a gap). */
export function specCoverage(scenarios: readonly LoadedScenario[]): { rule: string; scenarios: string[] }[] {
  return SPEC_RULES.map(({ rule, citedBy }) => ({
    rule,
    scenarios: scenarios
      .filter((s) => citedBy.test(s.spec))
      .map((s) => s.id)
      .sort(),
  }))
}

/** The coverage as the Markdown table of docs/conformance.md. */
export function coverageTable(scenarios: readonly LoadedScenario[]): string {
  const rows = specCoverage(scenarios).map(
    ({ rule, scenarios: ids }) => `| ${rule} | ${ids.length ? ids.join(', ') : '**none**'} |`,
  )
  return ['| Spec rule | Enforced by |', '|---|---|', ...rows].join('\n')
}
