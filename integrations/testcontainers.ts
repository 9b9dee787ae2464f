import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  AbstractStartedContainer,
  GenericContainer,
  getContainerRuntimeClient,
  ImageName,
  type StartedTestContainer,
  Wait,
} from 'testcontainers'
import { type DevnetManifest, DevnetManifest as DevnetManifestSchema } from '../spec'
import { BaseError } from '../spec/BaseError'

const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
  version: string
}

/** The image `npm run image` builds for this version of the package. */
export const DEFAULT_IMAGE = `intent-devnet:${version}`

const UP_LINE = /intent-devnet is up at (http:\/\/\S+)/

export class ImageMissingError extends BaseError {
  override name = 'IntentDevnetContainer.ImageMissingError'
  constructor(image: string) {
    super(`The image ${image} is not in the local Docker engine.`, {
      details:
        'It is built locally, not pulled: run `npm run image` in an intent-devnet checkout (or install), or pass the tag you built to new IntentDevnetContainer(tag).',
      docsPath: 'docs/ci.md',
    })
  }
}

/**
 * The intent-devnet simulator in a container, for testcontainers. It runs on the host's network
 * (`--network host`), so the service and every chain's RPC URL in the manifest answer on
 * 127.0.0.1 of the machine running the tests; the service picks a free port itself. Needs a
 * local Linux engine (host networking) and works without the reaper
 * (`TESTCONTAINERS_RYUK_DISABLED=true`): `stop()` removes the container.
 *
 * @example
 * const devnet = await new IntentDevnetContainer().withChains([10, 8453]).withApiKey('k').start()
 * const { chains } = await devnet.manifest()
 * await devnet.stop()
 */
export class IntentDevnetContainer extends GenericContainer {
  private readonly image: string
  private readonly upArgs = new Map<string, string[]>()
  private apiKey = 'devnet-key'

  constructor(image: string = DEFAULT_IMAGE) {
    super(image)
    this.image = image
    this.withNetworkMode('host').withWaitStrategy(Wait.forLogMessage(UP_LINE)).withStartupTimeout(120_000)
  }

  /** Chain ids to run (`--chains`; default 1, 10, 8453, 42161). */
  withChains(chainIds: readonly number[]): this {
    this.upArgs.set('--chains', [chainIds.join(',')])
    return this
  }

  /** The API key callers send in `x-api-key` (`--api-key`; default `devnet-key`). */
  withApiKey(apiKey: string): this {
    this.apiKey = apiKey
    this.upArgs.set('--api-key', [apiKey])
    return this
  }

  /** Rejects requests without `x-api-version` (`--strict-version`). */
  withStrictVersion(): this {
    this.upArgs.set('--strict-version', [])
    return this
  }

  /** Lifetime of a blanc quote in seconds (`--quote-ttl`). */
  withQuoteTtl(seconds: number): this {
    this.upArgs.set('--quote-ttl', [String(seconds)])
    return this
  }

  /** Swap fee in basis points (`--swap-fee-bps`). */
  withSwapFeeBps(bps: number): this {
    this.upArgs.set('--swap-fee-bps', [String(bps)])
    return this
  }

  /** Forks a chain from an RPC URL the container can reach (`--fork CHAIN=URL`, repeatable). */
  withFork(chainId: number, rpcUrl: string): this {
    this.upArgs.set(`--fork ${chainId}`, ['--fork', `${chainId}=${rpcUrl}`])
    return this
  }

  /** Starts the container; resolves once the service listens. */
  override async start(): Promise<StartedIntentDevnetContainer> {
    const client = await getContainerRuntimeClient()
    if (!(await client.image.exists(ImageName.fromString(this.image))))
      throw new ImageMissingError(this.image)
    const args = ['up', '--port', '0']
    for (const [flag, values] of this.upArgs)
      args.push(...(flag.startsWith('--fork ') ? values : [flag, ...values]))
    this.withCommand(args)
    const started = await super.start()
    return new StartedIntentDevnetContainer(started, await baseUrlOf(started), this.apiKey)
  }
}

/** The base URL the service printed (it chose a free port). */
async function baseUrlOf(container: StartedTestContainer): Promise<string> {
  const stream = await container.logs()
  let output = ''
  try {
    for await (const chunk of stream) {
      output += String(chunk)
      const match = output.match(UP_LINE)
      if (match) return match[1]!
    }
  } finally {
    stream.destroy()
  }
  throw new BaseError('The intent-devnet container stopped before it printed its URL.', { details: output })
}

/** A running {@link IntentDevnetContainer}. */
export class StartedIntentDevnetContainer extends AbstractStartedContainer {
  /** The service, e.g. `http://127.0.0.1:41233`. */
  readonly baseUrl: string
  /** The key to send in `x-api-key`. */
  readonly apiKey: string

  constructor(started: StartedTestContainer, baseUrl: string, apiKey: string) {
    super(started)
    this.baseUrl = baseUrl
    this.apiKey = apiKey
  }

  /** The devnet's manifest (`GET /_devnet/manifest`): chains with RPC URLs the host can reach, contracts, tokens, funded accounts. */
  async manifest(): Promise<DevnetManifest> {
    const response = await fetch(`${this.baseUrl}/_devnet/manifest`, {
      headers: { 'x-api-key': this.apiKey },
    })
    if (!response.ok) throw new BaseError(`GET /_devnet/manifest answered ${response.status}.`)
    return DevnetManifestSchema.parse(await response.json())
  }
}
