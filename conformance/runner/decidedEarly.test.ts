import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type LoadedScenario, parseScenario } from '../scenario/loadScenarios'
import { runConformance } from './runConformance'

/**
 * A target whose intents end as asked (GET /intents/failed stays FAILED, GET /intents/stuck
 * stays PENDING, GET /intents/late is PENDING twice, then COMPLETED) and that sends the webhooks it is asked to (POST /emit
 * `{url, events: [{type, account, delayMs}]}`, unsigned), each after its delay.
 */
let server: Server
let target: string
const polls = new Map<string, number>()

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
      // A status body as the public service shapes it (every answer is also checked against the route table).
      const statusBody = (id: string, status: string) => ({ intentId: id, status, operations: [] })
      const intent = /^\/intents\/(\w+)$/.exec(req.url ?? '')?.[1]
      if (req.method === 'GET' && intent) {
        const count = (polls.get(intent) ?? 0) + 1
        polls.set(intent, count)
        if (intent === 'failed') return json(200, statusBody(intent, 'FAILED'))
        if (intent === 'completed') return json(200, statusBody(intent, 'COMPLETED'))
        if (intent === 'refused') return json(400, { code: 'VALIDATION_ERROR', message: 'bad id' })
        if (intent === 'stuck') return json(200, statusBody(intent, 'PENDING'))
        return json(200, statusBody(intent, count > 2 ? 'COMPLETED' : 'PENDING'))
      }
      if (req.method === 'POST' && req.url === '/emit') {
        const { url, events } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          url: string
          events: { type: string; account: string; delayMs: number }[]
        }
        for (const { type, account, delayMs } of events)
          setTimeout(() => {
            fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ type, data: { account } }),
            }).catch(() => {})
          }, delayMs)
        return json(202, { sent: events.length })
      }
      json(404, {})
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
)

function scenario(text: string): LoadedScenario {
  const parsed = parseScenario(text, 'inline.yaml')
  if (!parsed.scenario) throw new Error(JSON.stringify(parsed.problems))
  return { ...parsed.scenario, pack: 'inline', file: 'inline.yaml' }
}

const run = (text: string, timeoutSeconds?: number) =>
  runConformance({ target, apiKey: 'key', scenarios: [scenario(text)], timeoutSeconds })

describe('the runner concludes as soon as the outcome is decided', () => {
  test('a poll ends at its final state, not at its time limit; a state that is not final is polled on', async () => {
    const started = performance.now()
    const failed = await run(`
id: poll.final
title: an intent that fails
spec: test
steps:
  - http: { method: GET, path: /intents/failed }
    poll: { timeoutSeconds: 30, intervalMs: 100, final: { /status: { equals: FAILED } } }
    expect: { status: 200, body: { /status: { equals: COMPLETED } } }
`)
    expect(performance.now() - started).toBeLessThan(5_000)
    const check = failed.scenarios[0]!.checks.find((c) => c.name === 'body /status')!
    expect(check.status).toBe('failed')
    expect(check.actual).toBe('FAILED')
    expect(check.message).toMatch(
      /^\/status "FAILED", but .* \(a final answer: the poll ended after 1 poll over/,
    )
    expect(polls.get('failed')).toBe(1)

    const late = await run(`
id: poll.late
title: an intent that completes after two polls
spec: test
steps:
  - http: { method: GET, path: /intents/late }
    poll: { timeoutSeconds: 30, intervalMs: 100, final: { /status: { equals: FAILED } } }
    expect: { status: 200, body: { /status: { equals: COMPLETED } } }
`)
    expect(late.scenarios[0]!.status).toBe('passed')
    expect(polls.get('late')).toBe(3)
  })

  test('a terminal status lacking what the step expects, or an answer no later poll can change, ends the poll at once', async () => {
    const started = performance.now()
    const completed = await run(`
id: poll.completed-lacking
title: COMPLETED, but without operations
spec: test
steps:
  - http: { method: GET, path: /intents/completed }
    poll: { timeoutSeconds: 30, intervalMs: 100, final: { /status: { oneOf: [COMPLETED, FAILED, EXPIRED] } } }
    expect: { status: 200, body: { /status: { equals: COMPLETED }, /operations/0/items/0/txHash: { type: string } } }
`)
    const lacking = completed.scenarios[0]!.checks.find(
      (c) => c.name === 'body /operations/0/items/0/txHash',
    )!
    expect(lacking.message).toMatch(
      /^\/status "COMPLETED", but \/operations\/0\/items\/0\/txHash is missing \(a final answer/,
    )
    expect(polls.get('completed')).toBe(1)
    const refused = await run(`
id: poll.refused
title: a request the target refuses
spec: test
steps:
  - http: { method: GET, path: /intents/refused }
    poll: { timeoutSeconds: 30, intervalMs: 100 }
    expect: { status: 200 }
`)
    expect(refused.scenarios[0]!.checks[0]!.message).toMatch(
      /^status 400, but status is 400 \(a final answer/,
    )
    expect(polls.get('refused')).toBe(1)
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  test('an awaited webhook fails when a contradicting one for the same pick arrives; one for another does not decide', async () => {
    const started = performance.now()
    const contradicted = await run(`
id: webhook.contradicted
title: a deposit bridged where it should have failed
spec: test
steps:
  - http:
      method: POST
      path: /emit
      body: { url: "\${webhook.url}", events: [{ type: bridge-complete, account: a, delayMs: 0 }] }
    expect: { status: 202 }
  - name: a fails
    webhook:
      type: bridge-failed
      contradictedBy: [bridge-complete]
      withinSeconds: 30
      signature: absent
      where: { /data/account: { equals: a } }
`)
    expect(performance.now() - started).toBeLessThan(5_000)
    const check = contradicted.scenarios[0]!.checks.find((c) => c.name === 'webhook bridge-failed')!
    expect(check.status).toBe('failed')
    expect(check.message).toMatch(/a bridge-complete event arrived for it instead/)
    expect(check.actual).toBe('received: bridge-complete')

    // Another account's outcome decides nothing: the awaited event, later, passes.
    const awaited = await run(`
id: webhook.awaited
title: another deposit bridged, then the awaited failure
spec: test
steps:
  - http:
      method: POST
      path: /emit
      body:
        url: "\${webhook.url}"
        events: [{ type: bridge-complete, account: b, delayMs: 0 }, { type: bridge-failed, account: a, delayMs: 300 }]
    expect: { status: 202 }
  - name: a fails
    webhook:
      type: bridge-failed
      contradictedBy: [bridge-complete]
      withinSeconds: 30
      signature: absent
      where: { /data/account: { equals: a } }
`)
    expect(awaited.scenarios[0]!.status).toBe('passed')
  })
})

describe('messages state the real waits', () => {
  test("a poll and a webhook wait cut short by the scenario's time limit say how long they waited, and why", async () => {
    const started = performance.now()
    const polled = await run(
      `
id: poll.cut
title: an intent that stays pending past the scenario's time limit
spec: test
steps:
  - http: { method: GET, path: /intents/stuck }
    poll: { timeoutSeconds: 90, intervalMs: 100 }
    expect: { status: 200, body: { /status: { equals: COMPLETED } } }
`,
      1,
    )
    const poll = polled.scenarios[0]!.checks.find((c) => c.name === 'body /status')!
    expect(poll.status).toBe('failed')
    expect(poll.message).toMatch(
      /still, after \d+ polls over [01]\.\d s: the scenario's time limit ended the poll before its 90 s/,
    )
    const waited = await run(
      `
id: webhook.cut
title: an event that never comes
spec: test
steps:
  - webhook: { type: bridge-failed, withinSeconds: 90, signature: absent }
`,
      1,
    )
    const hook = waited.scenarios[0]!.checks.find((c) => c.name === 'webhook bridge-failed')!
    expect(hook.status).toBe('failed')
    expect(hook.message).toMatch(
      /no bridge-failed event in [01]\.\d s: the scenario's time limit ended the wait before its 90 s/,
    )
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})
