/**
 * The hooks a contract test file registers around one test chain: build it once, start every test
 * from the state the build left (Anvil snapshot/revert), stop it after the file.
 *
 * @example
 * const fx = new CompactChain()
 * useChain(fx)
 * test('...', async () => { await fx.chain.client.getBlockNumber() })
 */
import type { Hex } from 'viem'
import { afterAll, beforeAll, beforeEach } from 'vitest'

/** A started chain as {@link useChain} needs it: Anvil's snapshot and revert, and a stop. */
export type StartedChain = {
  client: { snapshot(): Promise<Hex>; revert(parameters: { id: Hex }): Promise<void> }
  stop(): Promise<void>
}

/** What {@link useChain} drives: a fixture that builds its chain in `start`. */
export type ChainFixture = { start(): Promise<StartedChain> }

/** Options of {@link useChain}. */
export type UseChainOptions = {
  /** Revert to the built state before each test (default true); false lets tests build on each other. */
  snapshots?: boolean | undefined
  /** The build's hook timeout in ms (default: the config's hookTimeout). */
  startTimeout?: number | undefined
}

/**
 * Registers beforeAll (`fixture.start()`), beforeEach (revert to the state after start) and afterAll
 * (stop the chain) in the calling file. Call it at the top level of a test file.
 */
export function useChain(fixture: ChainFixture, options: UseChainOptions = {}): void {
  let chain: StartedChain | undefined
  let snapshot: Hex | undefined
  beforeAll(async () => {
    chain = await fixture.start()
    if (options.snapshots !== false) snapshot = await chain.client.snapshot()
  }, options.startTimeout)
  if (options.snapshots !== false)
    beforeEach(async () => {
      if (!chain || !snapshot) throw new Error('useChain: the chain did not start')
      await chain.client.revert({ id: snapshot })
      snapshot = await chain.client.snapshot()
    })
  afterAll(async () => {
    await chain?.stop()
  })
}
