import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { escapeXml } from '../reporters/escape'
import { Scenario } from '../scenario/schema'
import type { Coverage, Finding } from './findings'
import { PROPERTIES, type PropertyName } from './properties'

/**
 * What a fuzz run leaves behind: each finding as a scenario of the packs' format in
 * `DIR/findings/*.yaml` (with its seed and property), `DIR/report.json` and `DIR/junit.xml`.
 */

/** The whole run, as report.json holds it. */
export type FuzzReport = {
  tool: 'intent-devnet fuzz'
  seed: number
  target: string
  profile: string
  versions: string[]
  shard?: { index: number; total: number } | undefined
  startedAt: string
  durationMs: number
  /**
   * Requests sent to the target, by what for: the probes of which routes it serves, the
   * stateless phase's generated requests (with their controls), the findings' shrinking, the
   * sequences; their total never exceeds `budget` (null: a run by duration). The stateless
   * phase's rate counts every request it sent, shrinking included.
   */
  requests: {
    budget: number | null
    probes: number
    stateless: number
    shrinking: number
    stateful: number
    total: number
    statelessPerSecond: number
  }
  statefulSequences: number
  /** Routes left out, with why (not served by the target, or not in the run's versions). */
  routesLeftOut: { route: string; reason: string }[]
  /** What the stateful phase could not drive on this target, with why. */
  statefulLeftOut: string[]
  findings: (Omit<Finding, 'steps' | 'exchange'> & { file: string; spec: string; steps: number })[]
  coverage: Coverage
}

const kebab = (text: string) => text.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()

/**
 * The scenario of a finding: its minimal steps, the property's spec words, and what it needs.
 *
 * @example
 * const scenario = findingScenario(finding)
 */
export function findingScenario(finding: Finding): Scenario {
  const property = PROPERTIES[finding.property]
  return Scenario.parse({
    id: `fuzz.${finding.property}.${kebab(finding.route)}`,
    title: `${property.title} — found by intent-devnet fuzz (seed ${finding.seed}): ${finding.title}`.slice(
      0,
      400,
    ),
    spec: property.spec,
    level: 'MUST',
    requires: { capabilities: finding.requires.capabilities, version: finding.requires.version },
    steps: finding.steps,
  })
}

/**
 * Writes the findings' scenarios (replacing the YAML files a previous run left in
 * `DIR/findings`), report.json and junit.xml; returns the paths written.
 *
 * @example
 * const files = await writeFuzzResults('reports/fuzz', findings, report)
 */
export async function writeFuzzResults(
  dir: string,
  findings: readonly Finding[],
  report: Omit<FuzzReport, 'findings'>,
): Promise<{ files: string[]; report: FuzzReport }> {
  const findingsDir = join(dir, 'findings')
  await mkdir(findingsDir, { recursive: true })
  for (const name of await readdir(findingsDir))
    if (/\.ya?ml$/.test(name)) await rm(join(findingsDir, name), { force: true })
  const files: string[] = []
  const entries: FuzzReport['findings'] = []
  for (const finding of findings) {
    const scenario = findingScenario(finding)
    const file = join(findingsDir, `${finding.property}-${kebab(finding.route)}.yaml`)
    const header = [
      '# Written by intent-devnet fuzz: a minimal sequence that breaks a property of the spec.',
      `# seed: ${finding.seed} (fast-check run seed ${finding.runSeed}); replay: intent-devnet fuzz --seed ${finding.seed}`,
      `# property: ${finding.property} — ${PROPERTIES[finding.property].title}`,
      `# route: ${finding.route}; shrunk from ${finding.sizeBeforeShrinking} ${finding.phase === 'stateless' ? 'requests' : 'commands'} to ${finding.steps.length} step${finding.steps.length === 1 ? '' : 's'}`,
      ...`the target answered: ${finding.message}`
        .slice(0, 600)
        .split('\n')
        .map((line) => `# ${line}`),
      `# run it: intent-devnet conformance --scenarios ${findingsDir} --target <url> --api-key <key>`,
    ].join('\n')
    const body = stringify(
      {
        id: scenario.id,
        title: scenario.title,
        spec: scenario.spec,
        requires: scenario.requires,
        steps: finding.steps,
      },
      { lineWidth: 0 },
    )
    await writeFile(file, `${header}\n${body}`)
    files.push(file)
    const { steps, exchange: _, ...rest } = finding
    entries.push({ ...rest, file, spec: scenario.spec, steps: steps.length })
  }
  const full: FuzzReport = { ...report, findings: entries }
  const reportFile = join(dir, 'report.json')
  await writeFile(reportFile, `${JSON.stringify(full, null, 2)}\n`)
  const junitFile = join(dir, 'junit.xml')
  await writeFile(junitFile, renderFuzzJunit(full))
  return { files: [...files, reportFile, junitFile], report: full }
}

/**
 * JUnit XML of a fuzz run: one test case per route and property checked, failed when a finding
 * names them; the seed, the requests and each route's statuses in the suite's properties.
 *
 * @example
 * await writeFile('junit.xml', renderFuzzJunit(report))
 */
export function renderFuzzJunit(report: FuzzReport): string {
  const cases: string[] = []
  let failures = 0
  for (const [route, entry] of Object.entries(report.coverage).sort(([a], [b]) => a.localeCompare(b)))
    for (const [property, counts] of Object.entries(entry.properties)) {
      const finding = report.findings.find((f) => f.route === route && f.property === property)
      const name = `${route}: ${property} (${counts.checked} checked)`
      if (!finding) {
        cases.push(`    <testcase classname="fuzz.${escapeXml(route)}" name="${escapeXml(name)}"/>`)
        continue
      }
      failures++
      cases.push(
        `    <testcase classname="fuzz.${escapeXml(route)}" name="${escapeXml(name)}">\n      <failure message="${escapeXml(finding.message.slice(0, 500))}">${escapeXml(
          `${PROPERTIES[property as PropertyName].spec}\n${finding.title}\nscenario: ${finding.file}`,
        )}</failure>\n    </testcase>`,
      )
    }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="intent-devnet fuzz" tests="${cases.length}" failures="${failures}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="fuzz seed ${report.seed}" tests="${cases.length}" failures="${failures}" timestamp="${report.startedAt}">`,
    '    <properties>',
    `      <property name="seed" value="${report.seed}"/>`,
    `      <property name="target" value="${escapeXml(report.target)}"/>`,
    `      <property name="requests" value="${report.requests.total}"/>`,
    `      <property name="budget" value="${report.requests.budget ?? 'none (--duration)'}"/>`,
    `      <property name="shrinking requests" value="${report.requests.shrinking}"/>`,
    // Coverage's third axis: the statuses each route answered.
    ...Object.entries(report.coverage)
      .sort(([a], [b]) => a.localeCompare(b))
      .filter(([, entry]) => Object.keys(entry.statuses).length > 0)
      .map(
        ([route, entry]) =>
          `      <property name="statuses ${escapeXml(route)}" value="${escapeXml(
            Object.entries(entry.statuses)
              .map(([status, n]) => `${status}×${n}`)
              .join(' '),
          )}"/>`,
      ),
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
