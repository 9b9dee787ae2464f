import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { replayPassed, replayRecording } from '../../conformance/record/replayRecording'
import { startRecorder } from '../../conformance/record/startRecorder'
import { writeRecording } from '../../conformance/record/writeRecording'
import { renderConsole } from '../../conformance/reporters'
import { type Simulator, startSimulator } from '../../simulator/startSimulator'
import { blancCrossChain } from './sessions'

/**
 * A recording made on a devnet with keys of its own (`--mnemonic`, `--accounts`) replays with
 * those keys: the service's signer that signed the recorded quotes, the allocator, and the funded
 * account whose signatures and nonces are in the recorded chain state.
 */
const CHAINS = [10, 8453]
/** A valid BIP-39 mnemonic that is not Anvil's. */
const OWN_MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'

describe('a recording made on a devnet with its own mnemonic and account count', () => {
  let sim: Simulator
  let dir: string

  beforeAll(async () => {
    sim = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      chainIds: CHAINS,
      apiKey: 'keys-key-0123',
      mnemonic: OWN_MNEMONIC,
      accountCount: 4,
    })
    dir = await mkdtemp(join(tmpdir(), 'record-keys-'))
  }, 120_000)

  afterAll(async () => {
    await sim?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('replays with the recorded keys, three times; without them it cannot', async () => {
    const recorder = await startRecorder({ target: sim.baseUrl, apiKey: sim.apiKey, port: 0 })
    try {
      await blancCrossChain(sim, recorder, 2)
    } finally {
      await recorder.stop()
    }
    const file = join(dir, 'keys.yaml')
    await writeRecording(recorder.recording(), file)
    const service = JSON.parse(await readFile(`${file}.state/service.json`, 'utf8')) as Record<
      string,
      unknown
    >
    expect(service).toMatchObject({ mnemonic: OWN_MNEMONIC, accountCount: 4 })

    const runs = await Promise.all(Array.from({ length: 3 }, () => replayRecording({ file })))
    for (const run of runs) expect(replayPassed(run), renderConsole(run)).toBe(true)

    // The same recording as a recorder that did not keep the keys wrote it: the replay's devnet
    // has Anvil's keys, so the recorded account is not among its accounts and nothing it signed holds.
    const old = join(dir, 'keys-old.yaml')
    await cp(file, old)
    await cp(`${file}.state`, `${old}.state`, { recursive: true })
    const { mnemonic: _m, accountCount: _c, ...withoutKeys } = service
    await writeFile(`${old}.state/service.json`, JSON.stringify(withoutKeys))
    // Anvil's relayer has no ether in the recorded chains: the replay's simulator cannot even start
    // (its first approval fails), or, were it funded, the recorded signatures would not match.
    const stale = await replayRecording({ file: old }).catch((error: Error) => error)
    if (stale instanceof Error) expect(stale.message).toMatch(/insufficient funds/i)
    else expect(replayPassed(stale)).toBe(false)
  }, 360_000)
})
