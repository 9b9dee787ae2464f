import { mkdtemp, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { type AnvilInstance, startAnvil } from '../../../simulator/devnet/anvil'
import { type LoadedScenario, parseScenario } from '../../scenario/loadScenarios'
import type { LocalTarget } from '../startLocalTarget'

/**
 * The HTTP service alone (no chains, no control API, domain routes answer 501): a target that
 * lacks most capabilities, unlike startLocalTarget's whole simulator.
 */
export async function startBareTarget(parameters: { strictVersion?: boolean } = {}): Promise<LocalTarget> {
  const [{ buildApp, ApiError }, { stubServices }, { createFaults }, { faultControl }, { withHttpFaults }] =
    await Promise.all([
      import('../../../simulator/http'),
      import('../../../simulator/http/testing/stubServices'),
      import('../../../simulator/faults/faults'),
      import('../../../simulator/faultInjection/http/control'),
      import('../../../simulator/faultInjection/http/httpFaults'),
    ])
  const faults = createFaults()
  // A vendor still building its domain logic: every domain route answers 501.
  const notBuilt = async (): Promise<never> => {
    throw new ApiError('INTERNAL_ERROR', 'Not implemented yet.', { status: 501 })
  }
  const stubs = stubServices()
  const apiKey = 'bare-target-key'
  const app = await buildApp(
    { apiKeys: [apiKey], strictVersion: parameters.strictVersion },
    {
      ...stubs,
      quoting: { quoteBest: notBuilt, quoteEvery: notBuilt, resetQuotes: notBuilt, portfolio: notBuilt },
      intents: {
        submitOperation: notBuilt,
        simulateOperation: notBuilt,
        submitQuoted: notBuilt,
        simulateQuoted: notBuilt,
        getIntent: notBuilt,
        findIntent: notBuilt,
      },
      withdrawals: { withdraw: notBuilt, batchWithdraw: notBuilt },
      depositProcessor: {
        setup: notBuilt,
        getSetup: notBuilt,
        register: notBuilt,
        listDeposits: notBuilt,
        getDeposit: notBuilt,
        listWebhookEvents: notBuilt,
        resendWebhookEvent: notBuilt,
        sendTestEvent: notBuilt,
        resendFailedWebhookEvents: notBuilt,
      },
      faults: faultControl(faults),
    },
    { plugins: [withHttpFaults(faults)] },
  )
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return { target: `http://127.0.0.1:${port}`, apiKey, apiKeys: [], stop: () => app.close() }
}

// Anvil's first default account.
const FUNDED_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

/** A scenario from its YAML text, as loadScenarios would load it (pack 'inline'). */
export function scenario(text: string): LoadedScenario {
  const parsed = parseScenario(text, 'inline.yaml')
  if (!parsed.scenario) throw new Error(JSON.stringify(parsed.problems))
  return { ...parsed.scenario, pack: 'inline', file: 'inline.yaml' }
}

/**
 * What runScenario's tests run against: a bare target (startBareTarget) and one Anvil (chain 8453)
 * named, with a funded account, in a --chains file. Both start in the calling file's beforeAll
 * and stop in its afterAll; read `local` and `chainsFile` inside tests.
 */
export function useBareTargetWithChain() {
  let anvil: AnvilInstance
  let local: LocalTarget
  let chainsFile: string
  beforeAll(async () => {
    ;[anvil, local] = await Promise.all([startAnvil({ chainId: 8453 }), startBareTarget()])
    chainsFile = join(await mkdtemp(join(tmpdir(), 'chains-')), 'chains.json')
    await writeFile(
      chainsFile,
      JSON.stringify({ chains: [{ chainId: 8453, rpcUrl: anvil.rpcUrl }], accounts: [FUNDED_KEY] }),
    )
  })
  afterAll(async () => {
    await Promise.all([anvil?.stop(), local?.stop()])
  })
  return {
    get local() {
      return local
    },
    get chainsFile() {
      return chainsFile
    },
  }
}
