const root = process.argv[2]
const { runConformance } = await import(`${root}/conformance/runner/runConformance.ts`)
const run = await runConformance({})
console.log(JSON.stringify({ root, ms: run.summary.durationMs, ...run.summary.scenarios, failed: run.summary.checks.failed, checks: run.summary.checks.total }))
process.exit(0)
