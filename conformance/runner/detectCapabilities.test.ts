import { mkdtemp, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { detectCapabilities, OWN_SIMULATOR_PROBED, TargetUnreachableError } from './detectCapabilities'
import { loadProfile } from './profile'
import { startLocalTarget } from './startLocalTarget'

/** A loopback port nothing listens on (taken from the OS, then released). */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

const writeChains = async (text: string) => {
  const file = join(await mkdtemp(join(tmpdir(), 'chains-')), 'chains.json')
  await writeFile(file, text)
  return file
}

describe('detectCapabilities says what is wrong before anything runs', () => {
  test('a target that does not answer: the path asked and why, not a missing control API', async () => {
    const target = `http://127.0.0.1:${await closedPort()}`
    const error = await detectCapabilities({ target, apiKey: 'k' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TargetUnreachableError)
    expect((error as Error).message).toBe(
      `The target ${target} cannot be reached: GET /_devnet/manifest got no answer (ECONNREFUSED).`,
    )
  })

  test('an invalid --chains file names each wrong field, whatever the target answers', async () => {
    const target = `http://127.0.0.1:${await closedPort()}`
    const chainsFile = await writeChains(
      JSON.stringify({ chains: [{ chainId: 'ten', rpcUrl: 'not a url' }], accounts: [] }),
    )
    const error = await detectCapabilities({ target, apiKey: 'k', chainsFile }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TargetUnreachableError)
    const message = (error as Error).message
    expect(message).toMatch(new RegExp(`^The chains file ${chainsFile} is not valid: `))
    expect(message).toMatch(/chains\.0\.chainId: [^;]*number/)
    expect(message).toMatch(/chains\.0\.rpcUrl: [^;]*URL/i)
    const unreadable = await detectCapabilities({
      target,
      apiKey: 'k',
      chainsFile: `${chainsFile}.gone`,
    }).catch((e: unknown) => e)
    expect((unreadable as Error).message).toMatch(/is not valid: ENOENT/)
  })
})

describe('detectCapabilities on the runner’s own simulator', () => {
  test('probing it finds what is known of it, which is what it takes without probing', async () => {
    const local = await startLocalTarget()
    try {
      const { target, apiKey } = local
      const probed = await detectCapabilities({ target, apiKey })
      const known = await detectCapabilities({ target, apiKey, ownSimulator: true })
      expect(probed).toMatchObject(OWN_SIMULATOR_PROBED)
      expect(known).toStrictEqual(probed)
      expect(JSON.stringify(known)).toBe(JSON.stringify(probed))
      // Another profile's paths are probed: what it learns there is not known beforehand.
      const publicProfile = await loadProfile('public')
      const other = await detectCapabilities({ target, apiKey, ownSimulator: true, profile: publicProfile })
      expect(other).toStrictEqual(await detectCapabilities({ target, apiKey, profile: publicProfile }))
    } finally {
      await local.stop()
    }
  })
})
