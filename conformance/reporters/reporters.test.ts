import { describe, expect, test } from 'vitest'
import { summarize } from '../runner/runConformance'
import type { RunResult, ScenarioResult } from '../runner/types'
import { inPackOrder, renderConsole, renderHtml, renderJson, renderJunit } from '.'
import { runResultOf } from './testing/runResult'

/** A run with a pass, a failure with characters XML must escape, and a not-applicable scenario. */
function sampleRun(): RunResult {
  const scenarios: ScenarioResult[] = [
    {
      id: 'versioning.known',
      title: 'Known versions',
      pack: 'versioning',
      file: 'scenarios/versioning/known.yaml',
      spec: 'Versioning §3',
      status: 'failed',
      durationMs: 12,
      checks: [
        {
          id: 'versioning.known/1/status',
          scenarioId: 'versioning.known',
          step: 1,
          name: 'status',
          spec: 'Versioning §3',
          status: 'passed',
        },
        {
          id: 'versioning.known/1/body /message',
          scenarioId: 'versioning.known',
          step: 1,
          name: 'body /message',
          spec: 'Versioning §3 <"&">',
          status: 'failed',
          expected: { matches: 'x-api-version' },
          actual: 'got <b>&amp; "quotes" \u0001',
          message: '/message does not match',
          exchange: {
            request: {
              method: 'POST',
              url: 'http://127.0.0.1:1/intents/route',
              headers: { 'x-api-key': '<api key>' },
              body: '{}',
            },
            response: {
              status: 400,
              headers: { 'x-trace-id': 't' },
              body: '{"message":"<script>alert(1)</script>"}',
            },
          },
        },
      ],
    },
    {
      id: 'quotes.expiry',
      title: 'Quote expiry',
      pack: 'quotes',
      file: 'scenarios/quotes/expiry.yaml',
      spec: 'States and transitions, rule 3',
      status: 'not-applicable',
      reason: 'the target answers 501 NOT_IMPLEMENTED on POST /intents/route',
      checks: [],
      durationMs: 0,
    },
  ]
  return runResultOf(scenarios, { implemented: { quotes: false } }, 34)
}

/**
 * A strict well-formedness check for the XML our reporter writes: one root, balanced tags,
 * quoted attributes, no raw `<` or stray `&` in text or attributes.
 */
function assertWellFormedXml(xml: string): { name: string; attrs: Record<string, string> }[] {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, '')
  const stack: string[] = []
  const elements: { name: string; attrs: Record<string, string> }[] = []
  const entity = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g
  let roots = 0
  let i = 0
  while (i < body.length) {
    const lt = body.indexOf('<', i)
    const text = body.slice(i, lt === -1 ? body.length : lt)
    if (text.replace(entity, '').includes('&')) throw new Error(`stray & in text: ${text}`)
    if (lt === -1) break
    const gt = body.indexOf('>', lt)
    if (gt === -1) throw new Error('unclosed tag')
    const tag = body.slice(lt + 1, gt)
    if (tag.startsWith('/')) {
      if (stack.pop() !== tag.slice(1)) throw new Error(`mismatched </${tag.slice(1)}>`)
    } else {
      const m = /^([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)$/.exec(tag)
      if (!m) throw new Error(`malformed tag <${tag}>`)
      const attrs: Record<string, string> = {}
      for (const a of m[2]!.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
        if (a[2]!.replace(entity, '').includes('&')) throw new Error(`stray & in attribute ${a[1]}`)
        attrs[a[1]!] = a[2]!
      }
      elements.push({ name: m[1]!, attrs })
      if (stack.length === 0) roots++
      if (m[3] !== '/') stack.push(m[1]!)
    }
    i = gt + 1
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`)
  if (roots !== 1) throw new Error(`${roots} root elements`)
  return elements
}

describe('reporters', () => {
  test('JUnit is well-formed XML with one suite per pack and the failure in it', () => {
    const xml = renderJunit(sampleRun())
    const elements = assertWellFormedXml(xml)
    expect(elements[0]).toMatchObject({ name: 'testsuites', attrs: { tests: '2', failures: '1' } })
    expect(elements.filter((e) => e.name === 'testsuite').map((e) => e.attrs.name)).toEqual([
      'versioning',
      'quotes',
    ])
    expect(elements.filter((e) => e.name === 'failure')).toHaveLength(1)
    expect(elements.filter((e) => e.name === 'skipped')[0]?.attrs.message).toContain('not applicable')
    expect(xml).not.toContain('\u0001')
  })

  test('JUnit reports an expected failure as skipped and a baseline entry that now passes as a failure', () => {
    const run = sampleRun()
    run.scenarios[0]!.checks[1]!.baseline = 'expected-failure'
    run.scenarios[0]!.checks[0]!.baseline = 'now-passes'
    const elements = assertWellFormedXml(renderJunit(run))
    expect(elements.filter((e) => e.name === 'failure').map((e) => e.attrs.message)).toEqual([
      'passes, but the baseline expects it to fail: remove the entry',
    ])
  })

  test('JSON has every check with its spec section and exchange, and no private keys', () => {
    const json = JSON.parse(renderJson(sampleRun()))
    const check = json.scenarios[0].checks[1]
    expect(check).toMatchObject({
      spec: 'Versioning §3 <"&">',
      status: 'failed',
      exchange: { response: { status: 400 } },
    })
    expect(json.capabilities.accounts).toBe(1)
    expect(JSON.stringify(json)).not.toContain('59c6995e')
    expect(json.summary).toMatchObject({ checks: { total: 2, failed: 1 }, unexpected: 1 })
  })

  test('HTML is one self-contained page: inline CSS, no script, no external asset', () => {
    const html = renderHtml(sampleRun())
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain('<style>')
    // Links stay in the page (the failures summary links to each failed check's row).
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|\bhref="(?!#)|@import|url\(/i)
    // The target's response is shown escaped, never as markup.
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('not applicable'.replace('n', 'N'))
    expect(html).toContain('Versioning §3 &lt;&quot;&amp;&quot;&gt;')
  })

  test('console shows failures with expected and actual, and the summary', () => {
    const text = renderConsole(sampleRun())
    expect(text).toContain('✗ versioning.known/1/body /message')
    expect(text).toContain('expected: {"matches":"x-api-version"}')
    expect(text).toContain('actual:   got <b>')
    expect(text).toMatch(/Scenarios: .*0 passed.*1 failed.*1 not applicable/)
    expect(text).toContain('1 unexpected result')
  })

  test('failures first: the HTML summary links to each failed row with its request and response; console shows the body of a failed status check', () => {
    const run = sampleRun()
    const failed = run.scenarios[0]!.checks[1]!
    run.scenarios[0]!.checks.push({
      ...failed,
      id: 'versioning.known/1/status',
      name: 'status',
      message: 'status is 404',
    })
    run.summary = summarize(run.scenarios, [], 34)
    const html = renderHtml(run)
    const summary = html.indexOf('Failures (2)')
    expect(summary).toBeGreaterThan(0)
    // The summary comes before the packs, and each link leads to the row of its check.
    expect(summary).toBeLessThan(html.indexOf('<h2>versioning</h2>'))
    for (const anchor of ['failure-1', 'failure-2']) {
      expect(html).toContain(`href="#${anchor}"`)
      expect(html).toContain(`<tr id="${anchor}">`)
    }
    expect(html.slice(summary, html.indexOf('<h2>versioning</h2>'))).toContain(
      'POST http://127.0.0.1:1/intents/route',
    )
    const text = renderConsole(run)
    expect(text).toContain('response: 400 {"message":"<script>alert(1)</script>"}')
    // Only status checks print the body: the body /message failure does not repeat it.
    expect(text.match(/response: 400/g)).toHaveLength(1)
  })

  test('progress lines come in pack order, whatever order scenarios finish in', () => {
    const lines: string[] = []
    const onScenario = inPackOrder((line) => lines.push(line))
    const [failed, notApplicable] = sampleRun().scenarios as [ScenarioResult, ScenarioResult]
    const third = { ...failed, id: 'third' }
    onScenario(third, 1, 3, 2)
    onScenario(notApplicable, 2, 3, 1)
    expect(lines).toEqual([])
    onScenario(failed, 3, 3, 0)
    expect(lines.map((line) => line.split(' ').slice(2, 4).join(' '))).toEqual([
      'versioning/versioning.known 2',
      'quotes/quotes.expiry not',
      'versioning/third 2',
    ])
    expect(lines[0]).toMatch(/^\[1\/3\]/)
  })
})
