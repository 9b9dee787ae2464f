import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'

/** A simulator the runner started itself, and how to stop it. */
export type LocalTarget = { target: string; apiKey: string; stop: () => Promise<void> }

/** Parameters of {@link startLocalTarget}. */
export type StartLocalTargetParameters = {
  apiKey?: string | undefined
  /** Reject a missing `x-api-version` (the simulator's `--strict-version`). */
  strictVersion?: boolean | undefined
}

/**
 * Starts the simulator in this process on loopback (port 0), for a run without `--target`.
 * This is the one place that knows how to start it: today the HTTP app alone (domain routes
 * answer 501 until they are built); when `simulator/cli/up.ts` exports the whole service with
 * its chains, this switches to it and every caller gets chains and the control API for free.
 *
 * @example
 * const local = await startLocalTarget()
 * // … run against local.target with local.apiKey …
 * await local.stop()
 */
export async function startLocalTarget(parameters: StartLocalTargetParameters = {}): Promise<LocalTarget> {
  const apiKey = parameters.apiKey ?? `conformance-${randomBytes(6).toString('hex')}`
  const [{ buildApp }, { createSystemClock }] = await Promise.all([
    import('../../simulator/http'),
    import('../../simulator/services'),
  ])
  const app = await buildApp(
    { apiKeys: [apiKey], strictVersion: parameters.strictVersion },
    { clock: createSystemClock() },
  )
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return { target: `http://127.0.0.1:${port}`, apiKey, stop: () => app.close() }
}
