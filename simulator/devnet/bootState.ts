import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { hexToBytes } from 'viem'
import { anvilBinaryPath, startAnvil } from './anvil'
import { BOOT_STATE_DIR, BOOT_STATE_STAMP, type BootStateStamp } from './bootStateFiles.js'
import { createDevnetChain } from './chain'
import { deriveDevKeys } from './keys'
import { bootChain, DEFAULT_CHAIN_IDS } from './startDevnet'

/** Parameters of {@link bakeBootState}. */
export type BakeBootStateParameters = {
  /** The project's root: the bake goes to `<root>/dist/devnet-state`. */
  root: string
  /** Default {@link DEFAULT_CHAIN_IDS} (what `intent-devnet up` runs). */
  chainIds?: readonly number[] | undefined
}

/** What {@link bakeBootState} returns. */
export type BakeBootStateReturnType = { dir: string; bytes: number; ms: number }

/**
 * Bakes the devnet's boot state (bootStateFiles.js): boots each chain exactly as startDevnet
 * does without a state dir or fork (startDevnet's bootChain, the default keys), dumps it before
 * the clock is aligned (startDevnet aligns it at every start, so block numbers and timestamps
 * come out as after a placement), and writes one Anvil dump per chain and the stamp, last,
 * naming the bundle whose stamp was there when the bake began (scripts/build.ts runs it right
 * after a build, in a process of its own, so the code is the sources the bundle was built from;
 * a source changed meanwhile makes that bundle stale, hence the bake too).
 *
 * @example
 * await bakeBootState({ root })
 */
export async function bakeBootState(parameters: BakeBootStateParameters): Promise<BakeBootStateReturnType> {
  const started = performance.now()
  const { root } = parameters
  const chainIds = parameters.chainIds ?? DEFAULT_CHAIN_IDS
  const { bundle } = JSON.parse(readFileSync(join(root, 'dist/intent-devnet.stamp.json'), 'utf8')) as {
    bundle: BootStateStamp['bundle']
  }
  const keys = deriveDevKeys()
  const anvils = await Promise.all(chainIds.map((chainId) => startAnvil({ chainId })))
  const dumps: { chainId: number; json: Buffer; blockNumber: number; blockHash: string }[] = []
  try {
    await Promise.all(
      anvils.map(async (anvil) => {
        const chain = createDevnetChain({ anvil, relayer: keys.relayer.account })
        await bootChain({ chain, keys, saved: undefined, forked: false, log: () => {} })
        const [state, block] = await Promise.all([
          chain.testClient.dumpState(),
          chain.publicClient.getBlock({ blockTag: 'latest' }),
        ])
        // `--load-state` reads Anvil's JSON; `anvil_dumpState` answers it gzipped.
        dumps.push({
          chainId: anvil.chainId,
          json: gunzipSync(hexToBytes(state)),
          blockNumber: Number(block.number),
          blockHash: block.hash,
        })
      }),
    )
  } finally {
    await Promise.all(anvils.map((anvil) => anvil.stop()))
  }

  const dir = join(root, BOOT_STATE_DIR)
  await mkdir(dir, { recursive: true })
  // Named by the bundle: a start that read the previous stamp still finds the dumps it names.
  const key = `${bundle.size}-${Math.round(bundle.mtimeMs)}`
  const anvil = anvilBinaryPath()
  const anvilStat = statSync(anvil)
  const stamp: BootStateStamp = {
    version: 1,
    bundle,
    anvil: [anvil, anvilStat.size, anvilStat.mtimeMs],
    chains: {},
  }
  for (const { chainId, json, blockNumber, blockHash } of dumps) {
    const file = `chain-${chainId}.${key}.json`
    writeFileSync(join(dir, `${file}.${process.pid}.tmp`), json)
    renameSync(join(dir, `${file}.${process.pid}.tmp`), join(dir, file))
    const written = statSync(join(dir, file))
    stamp.chains[chainId] = { file, size: written.size, mtimeMs: written.mtimeMs, blockNumber, blockHash }
  }
  writeFileSync(join(dir, `${BOOT_STATE_STAMP}.${process.pid}.tmp`), JSON.stringify(stamp))
  renameSync(join(dir, `${BOOT_STATE_STAMP}.${process.pid}.tmp`), join(dir, BOOT_STATE_STAMP))
  // Dumps of earlier bakes (other bundles) are no longer named by any stamp.
  for (const name of readdirSync(dir))
    if (name.startsWith('chain-') && name.endsWith('.json') && !name.endsWith(`.${key}.json`))
      rmSync(join(dir, name), { force: true })
  return {
    dir,
    bytes: dumps.reduce((sum, dump) => sum + dump.json.length, 0),
    ms: performance.now() - started,
  }
}
