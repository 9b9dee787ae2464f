import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { mnemonicToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { startSimulator } from '../../simulator/index'
import {
  parseStartOptions,
  START_OPTION_NAMES,
  START_OPTIONS,
  startOptionArgs,
} from '../../spec/startOptions'
import { freePorts } from '../support/freePorts'

// The one options schema (spec/startOptions.ts): the CLI's flags come from it, an unknown name
// is an error listing the valid ones, and the Anvil-like options really shape the chains.
const bin = join(import.meta.dirname, '..', '..', 'bin', 'intent-devnet.js')

describe('the start options schema', () => {
  it('`up --help` lists a flag for every option, from the schema', () => {
    const help = spawnSync(process.execPath, [bin, 'up', '--help'], { encoding: 'utf8' }).stdout
    for (const name of START_OPTION_NAMES) expect(help).toContain(START_OPTIONS[name].flag)
  })

  it('an unknown option names itself and lists the valid ones; a bad value says why', () => {
    expect(() => parseStartOptions({ chains: [10] }, { where: 'intentDevnetOptions' })).toThrow(
      /Unknown option "chains" for intentDevnetOptions\. Valid options: port, host, .*rpcPort, mnemonic, accountCount, balance, blockTime/,
    )
    expect(() => parseStartOptions({ rpcPort: 70000 })).toThrow(/--rpc-port must be 0..65535/)
    const cli = spawnSync(process.execPath, [bin, 'up', '--rpcport', '1'], { encoding: 'utf8' })
    expect(cli.status).not.toBe(0)
    expect(cli.stderr).toMatch(
      /unknown option '--rpcport' for 'intent-devnet up'; valid options: .*--rpc-port/,
    )
  })

  it('`--version` prints the package version, from the bin and from the CLI', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    for (const args of [['--version'], ['-V'], ['up', '--version']]) {
      const out = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' })
      expect(out.status, args.join(' ')).toBe(0)
      expect(out.stdout.trim(), args.join(' ')).toBe(version)
    }
  })

  it('turns options into `up` arguments (what the container and child-process setups run)', () => {
    expect(
      startOptionArgs({
        chainIds: [10, 8453],
        rpcPort: 9000,
        strictVersion: true,
        forks: { 8453: 'http://x' },
      }),
    ).toEqual(['--strict-version', '--chains', '10,8453', '--rpc-port', '9000', '--fork', '8453=http://x'])
  })

  it('rpcPort, mnemonic, accountCount, balance and blockTime shape the real chains', async () => {
    const rpcPort = await freePorts(2)
    const mnemonic = 'legal winner thank year wave sausage worth useful legal winner thank yellow'
    const sim = await startSimulator({
      port: 0,
      chainIds: [10, 8453],
      rpcPort,
      mnemonic,
      accountCount: 2,
      balance: 3,
      blockTime: 1,
    })
    try {
      const { chains, accounts } = sim.manifest()
      expect(chains.map((chain) => chain.rpcUrl)).toEqual([
        `http://127.0.0.1:${rpcPort}`,
        `http://127.0.0.1:${rpcPort + 1}`,
      ])
      expect(accounts).toHaveLength(2)
      // The test accounts derive from the mnemonic given (keys.ts: they follow the role keys).
      const derived = Array.from(
        { length: 20 },
        (_, i) => mnemonicToAccount(mnemonic, { addressIndex: i }).address,
      )
      for (const account of accounts) expect(derived).toContain(account.address)
      const client = sim.devnet.chain(10).publicClient
      expect(await client.getBalance({ address: accounts[0]!.address as `0x${string}` })).toBe(
        3n * 10n ** 18n,
      )
      // --block-time: blocks come without transactions.
      const before = await client.getBlockNumber()
      await new Promise((resolve) => setTimeout(resolve, 2500))
      expect(await client.getBlockNumber()).toBeGreaterThan(before)
    } finally {
      await sim.close()
    }
  }, 120_000)
})
