import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { BaseError } from '../../spec/BaseError'
import { LOCAL_TARGET_CHAIN_IDS, type LocalTarget } from './startLocalTarget'

/** The simulator process did not come up. */
export class LocalTargetProcessError extends BaseError {
  override name = 'Conformance.LocalTargetProcessError'
}

type DevnetProcess = { manifest: { service: { baseUrl: string } }; stop: () => Promise<void> }

/**
 * The vitest and Jest setups' launcher (integrations/devnetProcess.cjs: `intent-devnet up` of
 * this package in a child process that stops with its parent), loaded at run time so the CLI's
 * bundle uses the shipped file beside the package's bin rather than a copy of it.
 */
const { startDevnetProcess } = createRequire(import.meta.url)('../../integrations/devnetProcess.cjs') as {
  startDevnetProcess: (options: Record<string, unknown>) => Promise<DevnetProcess>
}

/** Parameters of {@link startLocalTargetProcess}. */
export type StartLocalTargetProcessParameters = {
  apiKey?: string | undefined
  chainIds?: readonly number[] | undefined
}

/**
 * Starts the simulator (`intent-devnet up` on loopback, port 0, the local target's chains) in a
 * child process and waits until it serves: a load generator in this process (the fuzzer) and
 * the simulator then each have a core, rather than sharing one event loop.
 *
 * @example
 * const local = await startLocalTargetProcess()
 * await local.stop()
 */
export async function startLocalTargetProcess(
  parameters: StartLocalTargetProcessParameters = {},
): Promise<LocalTarget> {
  const apiKey = parameters.apiKey ?? `fuzz-${randomBytes(6).toString('hex')}`
  const chainIds = [...(parameters.chainIds ?? LOCAL_TARGET_CHAIN_IDS)]
  try {
    const devnet = await startDevnetProcess({ chainIds, apiKey })
    return { target: devnet.manifest.service.baseUrl, apiKey, apiKeys: [], stop: devnet.stop }
  } catch (cause) {
    throw new LocalTargetProcessError('The simulator process did not start.', {
      cause: cause instanceof Error ? cause : new Error(String(cause)),
    })
  }
}
