import type { CheckResult, RunResult, ScenarioResult } from '../runner/types'
import { escapeXml as h, show } from './escape'

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:20px 32px}
header h1{margin:0 0 4px;font-size:20px}
main{padding:16px 32px 48px;max-width:1200px}
.summary{display:flex;gap:12px;flex-wrap:wrap;margin:12px 0 20px}
.card{background:#fff;border-radius:8px;padding:10px 16px;box-shadow:0 1px 2px #0002;min-width:120px}
.card b{display:block;font-size:22px}
.ok{color:#137333}.bad{color:#b3261e}.na{color:#8a6d00}.muted{color:#667}
details{background:#fff;border-radius:8px;margin:8px 0;box-shadow:0 1px 2px #0002}
summary{cursor:pointer;padding:10px 14px;font-weight:600}
summary .meta{font-weight:400;color:#667;margin-left:8px}
table{border-collapse:collapse;width:100%;font-size:13px}
td,th{border-top:1px solid #e3e5ea;padding:6px 10px;text-align:left;vertical-align:top}
pre{white-space:pre-wrap;word-break:break-all;background:#f3f4f6;padding:8px;border-radius:6px;margin:4px 0;max-height:280px;overflow:auto;font-size:12px}
.tag{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;background:#eee}
h2{font-size:16px;margin:24px 0 8px}
.failures{background:#fff;border-radius:8px;box-shadow:0 1px 2px #0002;padding:4px 14px 10px;margin:0 0 16px;border-left:4px solid #b3261e}
.failures li{margin:8px 0}
tr:target{background:#fff4e5}
`

function badge(status: string): string {
  const cls = status === 'passed' ? 'ok' : status === 'failed' ? 'bad' : 'na'
  return `<span class="tag ${cls}">${h(status)}</span>`
}

/** The text of an exchange's request and of its response, as the report shows them. */
function exchangeTexts(exchange: NonNullable<CheckResult['exchange']>): [string, string] {
  const request = `${exchange.request.method} ${exchange.request.url}\n${Object.entries(
    exchange.request.headers,
  )
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}${exchange.request.body ? `\n\n${exchange.request.body}` : ''}`
  const response = exchange.response
    ? `${exchange.response.status}\n${Object.entries(exchange.response.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')}\n\n${exchange.response.body}`
    : (exchange.error ?? '')
  return [request, response]
}

/** The anchor of a failed check's row, which the failures summary links to. */
type Anchors = Map<CheckResult, string>

/**
 * Failures first: every failed check, linked to its row, with its problem, its request and the
 * response (cut short); a vendor reads what to fix without scrolling through what passed.
 */
function failuresSummary(failures: readonly CheckResult[], anchors: Anchors): string {
  if (failures.length === 0) return '<p class="ok">No check failed.</p>'
  const item = (check: CheckResult) => {
    const [request, response] = check.exchange ? exchangeTexts(check.exchange) : ['', '']
    return `<li><a href="#${anchors.get(check)}">${h(check.id)}</a> <span class="tag">${h(check.level ?? 'MUST')}</span>${check.baseline === 'expected-failure' ? ' <span class="muted">(expected by the baseline)</span>' : ''}<div>${h(check.message ?? '')}</div>${
      check.exchange
        ? `<details><summary class="muted">request / response</summary><pre>${h(request.slice(0, 1500))}</pre><pre>${h(response.slice(0, 1500))}</pre></details>`
        : ''
    }</li>`
  }
  return `<section class="failures"><h2 class="bad">Failures (${failures.length})</h2><ol>${failures.map(item).join('')}</ol></section>`
}

function checkRow(check: CheckResult, anchors: Anchors): string {
  const status =
    check.baseline === 'expected-failure'
      ? 'failed (baseline)'
      : check.baseline === 'now-passes'
        ? 'passed (remove from baseline)'
        : check.status
  const texts = check.exchange ? exchangeTexts(check.exchange) : undefined
  const exchange = texts
    ? `<details${check.status === 'failed' ? ' open' : ''}><summary class="muted">request / response</summary><pre>${h(texts[0])}</pre><pre>${h(texts[1])}</pre></details>`
    : ''
  const detail =
    check.status === 'failed'
      ? `<div>${h(check.message ?? '')}</div><div class="muted">expected: ${h(show(check.expected))}</div><div class="muted">actual: ${h(show(check.actual).slice(0, 500))}</div>`
      : ''
  const anchor = anchors.get(check)
  return `<tr${anchor ? ` id="${anchor}"` : ''}><td>${check.step}</td><td>${h(check.name)}</td><td>${h(check.spec)}</td><td>${badge(check.status)}${status !== check.status ? ` <span class="muted">${h(status)}</span>` : ''}</td><td>${detail}${exchange}</td></tr>`
}

function scenarioBlock(scenario: ScenarioResult, anchors: Anchors): string {
  const open = scenario.status === 'failed' ? ' open' : ''
  const body =
    scenario.status === 'not-applicable'
      ? `<p style="padding:0 14px 12px" class="na">Not applicable: ${h(scenario.reason ?? '')}</p>`
      : `<table><tr><th>step</th><th>check</th><th>spec</th><th>result</th><th>detail</th></tr>${scenario.checks.map((c) => checkRow(c, anchors)).join('')}</table>${
          scenario.reason ? `<p style="padding:0 14px" class="muted">${h(scenario.reason)}</p>` : ''
        }${notesList(scenario)}`
  return `<details${open}><summary>${badge(scenario.status)} ${h(scenario.title)}<span class="meta">${h(scenario.pack)}/${h(scenario.id)} · ${h(scenario.spec)} · ${scenario.durationMs} ms</span></summary>${body}</details>`
}

/** What the runner did that is not a check (its setup, steps left out). */
function notesList(scenario: ScenarioResult): string {
  return scenario.notes?.length
    ? `<ul class="muted">${scenario.notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul>`
    : ''
}

/**
 * One self-contained HTML page (inline CSS, no script, no external asset) a person can read:
 * the summary, then each pack's scenarios with their checks, failures opened.
 */
export function renderHtml(run: RunResult): string {
  const s = run.summary
  const failures = run.scenarios.flatMap((x) => x.checks.filter((c) => c.status === 'failed'))
  const anchors: Anchors = new Map(failures.map((check, i) => [check, `failure-${i + 1}`]))
  const mappings = `${(run.capabilities.learned?.hints ?? []).map((hint) => `<p class="na">Hint: ${h(hint)}</p>`).join('')}${
    run.metadata.mappings?.length
      ? `<p class="muted">Profile mappings applied: ${run.metadata.mappings.map(h).join('; ')}.</p>`
      : ''
  }`
  const packs = [...new Set(run.scenarios.map((x) => x.pack))]
  const verdict =
    s.unexpected === 0 ? '<b class="ok">conformant</b>' : `<b class="bad">${s.unexpected} unexpected</b>`
  const stale = run.staleBaseline.length
    ? `<h2 class="bad">Baseline entries that now pass</h2><ul>${run.staleBaseline.map((e) => `<li>${h(e)}</li>`).join('')}</ul>`
    : ''
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Conformance report: ${h(run.target)}</title><style>${STYLE}</style></head>
<body><header><h1>Conformance report</h1><div>${h(run.target)} · ${h(run.startedAt)} · intent-devnet ${h(run.metadata.runnerVersion)} · pack ${h(run.metadata.packDigest)} · profile ${h(run.metadata.profile)} · versions ${h(run.metadata.versions.join(', '))} · MUST ${run.summary.levels.must.passed} passed / ${run.summary.levels.must.failed} failed · SHOULD ${run.summary.levels.should.passed} passed / ${run.summary.levels.should.failed} failed${run.shard ? ` · shard ${run.shard.index}/${run.shard.total}` : ''}</div></header>
<main>
<div class="summary">
<div class="card">result${verdict}</div>
<div class="card">scenarios<b>${s.scenarios.total}</b><span class="ok">${s.scenarios.passed} passed</span> · <span class="bad">${s.scenarios.failed} failed</span> · <span class="na">${s.scenarios.notApplicable} n/a</span></div>
<div class="card">checks<b>${s.checks.total}</b><span class="ok">${s.checks.passed} passed</span> · <span class="bad">${s.checks.failed} failed</span> (${s.checks.expectedFailures} baseline)</div>
<div class="card">time<b>${(s.durationMs / 1000).toFixed(2)} s</b></div>
</div>
<p class="muted">Target offers: control API ${run.capabilities.controlApi ? 'yes' : 'no'}, faults ${run.capabilities.faults ? 'yes' : 'no'}, chains ${run.capabilities.chains.map((c) => c.chainId).join(', ') || 'none'}, versions ${run.capabilities.versions.join(', ')}, webhooks ${run.capabilities.webhooks ? 'yes' : 'no'}.</p>
${failuresSummary(failures, anchors)}
${mappings}
${stale}
${packs
  .map(
    (pack) =>
      `<h2>${h(pack)}</h2>${run.scenarios
        .filter((x) => x.pack === pack)
        .map((x) => scenarioBlock(x, anchors))
        .join('\n')}`,
  )
  .join('\n')}
</main></body></html>
`
}
