import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../../conformance/runner/runConformance'
import { type LocalTarget, startLocalTarget } from '../../../conformance/runner/startLocalTarget'
import { loadScenarios } from '../../../conformance/scenario/loadScenarios'
import { chainsFileOf } from '../chainsFileOf'
import { DEPARTURES, MISBEHAVIOUR_DEPARTURES, MISBEHAVIOURS, type Misbehaviour } from './departures'
import { type IndependentTarget, startIndependentTarget } from './startIndependentTarget'

/** The chains come from a simulator's manifest; the simulator serves nothing else to this test. */
let chains: LocalTarget
let target: IndependentTarget
/** The same implementation, misbehaving in every way of MISBEHAVIOURS at once. */
let misbehaving: IndependentTarget
let chainsFile: string
const apiKey = 'independent-key'

/** The packs of the slice it implements (withdrawals and the deposit processor are not in it). */
const PACKS = ['versioning', 'authentication', 'errors', 'limits', 'quotes', 'settlement']
/**
 * Scenarios of those packs that need endpoints outside the slice: named here, or requiring the
 * withdrawals or deposits capability (settlement.smart-account-wrong-signer-blanc learns its lock
 * id from a withdrawal answer): a target without them fails such a scenario, rightly, as a missing
 * route; this test judges the slice.
 */
const OUTSIDE_SLICE = ['errors.envelopes']
const outsideSlice = (scenario: { id: string; requires?: { capabilities?: readonly string[] } }) =>
  OUTSIDE_SLICE.includes(scenario.id) ||
  (scenario.requires?.capabilities ?? []).some((c) => c === 'withdrawals' || c === 'deposits')

beforeAll(async () => {
  chains = await startLocalTarget()
  const file = (await chainsFileOf(chains.target, chains.apiKey)) as {
    chains: { chainId: number; rpcUrl: string }[]
    accounts: `0x${string}`[]
  }
  // Each target fills from a solver key of its own, which the runner is not given: a vendor does
  // not hand its solver's key to the runner (the runner may lend any funded account it has).
  const [solverKey, misbehavingSolverKey] = file.accounts.slice(-2)
  target = await startIndependentTarget({
    apiKey,
    chains: file.chains,
    solverKey: solverKey!,
    quoteTtlSeconds: 4,
  })
  misbehaving = await startIndependentTarget({
    apiKey,
    chains: file.chains,
    solverKey: misbehavingSolverKey!,
    quoteTtlSeconds: 4,
    misbehave: Object.fromEntries(Object.keys(MISBEHAVIOURS).map((name) => [name as Misbehaviour, true])),
  })
  chainsFile = join(await mkdtemp(join(tmpdir(), 'independent-')), 'chains.json')
  await writeFile(chainsFile, JSON.stringify({ ...file, accounts: file.accounts.slice(0, -2) }))
})
afterAll(async () => {
  await target?.close()
  await misbehaving?.close()
  await chains?.stop()
})

/** One run against `url` as a vendor would make it, and its failed checks as `id LEVEL`. */
async function judge(url: string, scenarios: Awaited<ReturnType<typeof loadScenarios>>) {
  const run = await runConformance({
    target: url,
    apiKey,
    scenarios,
    profile: 'public',
    version: 'blanc',
    chainsFile,
    maxWaitSeconds: 10,
    timeoutSeconds: 60,
  })
  const failed = run.scenarios.flatMap((s) =>
    s.checks.filter((c) => c.status === 'failed').map((c) => `${c.id} ${c.level ?? 'MUST'}`),
  )
  return { run, failed }
}

describe('an independent blanc-only implementation at the public paths (--profile public --version blanc)', () => {
  // The runner settles intents side by side (settlement.blanc-lifecycle beside
  // quotes.blanc-quote-expiry): the target must too, or the runner rightly reports FAILED.
  test('settles intents submitted at once (its solver sends in turn)', async () => {
    const file = JSON.parse(await readFile(chainsFile, 'utf8')) as {
      accounts: `0x${string}`[]
      tokens: Record<string, string>
    }
    const headers = {
      'x-api-key': apiKey,
      'x-api-version': '2026-04.blanc',
      'content-type': 'application/json',
    }
    const post = async (path: string, body: unknown) =>
      (await fetch(`${target.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()
    const signed = await Promise.all(
      file.accounts.slice(0, 4).map(async (key) => {
        const account = privateKeyToAccount(key)
        const quote = (await post('/quotes', {
          destinationChainId: 8453,
          tokenRequests: [{ tokenAddress: file.tokens['8453.USDC'], amount: '1000' }],
          account: { address: account.address },
        })) as { routes: { intentId: string; signData: { destination: never } }[] }
        const route = quote.routes[0]!
        const signature = await account.signTypedData(route.signData.destination)
        return { intentId: route.intentId, signatures: { origin: [signature], destination: signature } }
      }),
    )
    await Promise.all(signed.map((body) => post('/intents', body)))
    const statuses = async () =>
      Promise.all(
        signed.map(
          async ({ intentId }) =>
            (
              (await (await fetch(`${target.url}/intents/${intentId}`, { headers })).json()) as {
                status: string
              }
            ).status,
        ),
      )
    await expect.poll(statuses, { timeout: 30_000, interval: 200 }).not.toContain('PENDING')
    expect(await statuses()).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED'])
  }, 60_000)

  test('the report shows exactly its documented departures; alps scenarios are not applicable, with the reason', async () => {
    const scenarios = (await loadScenarios({ packs: PACKS })).filter((s) => !outsideSlice(s))
    const { run, failed } = await judge(target.url, scenarios)
    expect(failed.sort()).toEqual(DEPARTURES.flatMap((d) => d.checks.map((c) => `${c} ${d.level}`)).sort())

    const byStatus = (status: string) => run.scenarios.filter((s) => s.status === status).map((s) => s.id)
    expect(byStatus('failed').sort()).toEqual(
      [...new Set(DEPARTURES.flatMap((d) => d.checks.map((c) => c.split('/')[0])))].sort(),
    )
    // The blanc scenarios of its slice really ran and passed, the settlement on chain included.
    expect(byStatus('passed')).toEqual(
      expect.arrayContaining([
        'quotes.blanc-route-schema',
        'quotes.blanc-quote-expiry',
        'settlement.blanc-lifecycle',
      ]),
    )
    for (const s of run.scenarios.filter((r) => r.status === 'not-applicable'))
      expect(`${s.id}: ${s.reason}`).toMatch(
        /: (the scenario speaks alps; this run is restricted to --version blanc|its steps speak alps; this run is restricted to --version blanc|the target is not an intent-devnet \(no \/_devnet\/ endpoints\))$/,
      )
    expect(byStatus('not-applicable').length).toBeGreaterThan(0)
    expect(run.metadata).toMatchObject({ profile: 'public', versions: ['blanc'] })
    expect(run.capabilities.controlApi).toBe(false)
  }, 240_000)

  test('misbehaving in every way a vendor might (reasons in details[] only, header-less served as blanc, CAIP-2 chain ids, any amount, other types, extra fields, gzip with a charset and a BOM): every verdict right', async () => {
    const scenarios = (await loadScenarios({ packs: [...PACKS, 'bad-input'] })).filter(
      (s) => !outsideSlice(s) && (s.pack !== 'bad-input' || s.id === 'bad-input.huge-numbers'),
    )
    const { run, failed } = await judge(misbehaving.url, scenarios)
    // Allowed behaviours pass (the limits named in details[] only, CAIP-2 learned, header-less
    // blanc at MUST); alps by default fails only its SHOULD; any amount fails huge-numbers.
    const departures = [...DEPARTURES, ...MISBEHAVIOUR_DEPARTURES]
    expect(failed.sort()).toEqual(departures.flatMap((d) => d.checks.map((c) => `${c} ${d.level}`)).sort())
    const byStatus = (status: string) => run.scenarios.filter((s) => s.status === status).map((s) => s.id)
    expect(byStatus('failed').sort()).toEqual(
      [...new Set(departures.flatMap((d) => d.checks.map((c) => c.split('/')[0])))].sort(),
    )
    expect(byStatus('passed')).toEqual(
      expect.arrayContaining([
        'limits.chains',
        'versioning.empty-header',
        'quotes.blanc-route-schema',
        'quotes.blanc-quote-expiry',
        'settlement.blanc-lifecycle',
      ]),
    )
    // What the runner learned of it, and every mapping it applied, are in the report.
    expect(run.metadata.mappings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^requests without a known x-api-version go to the versions' mapped paths/),
        expect.stringMatching(
          /^POST \/intents\/route \(blanc\) requests send \/destinationChainId as CAIP-2/,
        ),
        expect.stringMatching(
          /^POST \/intents\/route \(blanc\) → POST \/quotes; \/destinationChainId as eip155:<n>$/,
        ),
        expect.stringMatching(/^POST \/intents\/route \(without a known version\) → POST \/quotes/),
      ]),
    )
  }, 240_000)
})
