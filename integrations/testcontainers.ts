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
import {
  createControlClient,
  DEFAULT_API_KEY,
  type DevnetManifest,
  type DevnetProcessOptions,
  parseStartOptions,
  START_OPTION_NAMES,
  type StartOptionName,
  startOptionArgs,
} from '../spec'
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

/** testcontainers found no engine: says what to set (issue 26). */
export class NoContainerRuntimeError extends BaseError {
  override name = 'IntentDevnetContainer.NoContainerRuntimeError'
  constructor(cause: Error) {
    super('testcontainers found no working Docker engine.', {
      details: [
        cause.message,
        'If `docker info` works here, the engine likely has no bridge network (a CI job inside a container, dockerd --bridge=none): set TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 (the devnet container uses the host network, so the host is this machine).',
        'Otherwise start Docker, or point DOCKER_HOST at an engine.',
      ].join('\n'),
      docsPath: 'docs/ci.md',
      cause,
    })
  }
}

/** The start options a container takes (its manifest stays inside it: `manifest()` reads it over HTTP). */
type ContainerOptionName = Exclude<StartOptionName, 'manifestPath'>
const CONTAINER_OPTIONS = START_OPTION_NAMES.filter(
  (name): name is ContainerOptionName => name !== 'manifestPath',
)

/** `chainIds` → `withChainIds`: the method of each start option. */
type WithMethodName<name extends string> = `with${Capitalize<name>}`
const methodName = <name extends string>(name: name) =>
  `with${name[0]!.toUpperCase()}${name.slice(1)}` as WithMethodName<name>

/**
 * One `withX(value)` per start option (spec/startOptions.ts, the list behind
 * `intent-devnet up`'s flags): `withChainIds([10, 8453])`, `withRpcPort(8545)`,
 * `withMnemonic(words)`, `withAccountCount(n)`, `withBalance(ether)`, `withBlockTime(s)`,
 * `withStrictVersion()`, `withForks({ 8453: url })`, …
 */
export type StartOptionMethods<self> = {
  [name in ContainerOptionName as WithMethodName<name>]-?: undefined extends DevnetProcessOptions[name]
    ? boolean extends NonNullable<DevnetProcessOptions[name]>
      ? (value?: boolean) => self
      : (value: NonNullable<DevnetProcessOptions[name]>) => self
    : never
}

/**
 * The intent-devnet simulator in a container, for testcontainers. It runs on the host's network
 * (`--network host`), so the service and every chain's RPC URL in the manifest answer on
 * 127.0.0.1 of the machine running the tests; the service picks a free port itself unless
 * `withPort(n)`. Needs a local Linux engine (host networking) and works without the reaper
 * (`TESTCONTAINERS_RYUK_DISABLED=true`): `stop()` removes the container. Every start option
 * has its `withX` method ({@link StartOptionMethods}); `withOptions({...})` sets several.
 *
 * @example
 * const devnet = await new IntentDevnetContainer().withChainIds([10, 8453]).withApiKey('k').start()
 * const { chains } = await devnet.manifest()
 * await devnet.stop()
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface's withX methods are defined on the prototype below.
export class IntentDevnetContainer extends GenericContainer {
  private readonly image: string
  private options: DevnetProcessOptions = {}

  constructor(image: string = DEFAULT_IMAGE) {
    super(image)
    this.image = image
    this.withNetworkMode('host').withWaitStrategy(Wait.forLogMessage(UP_LINE)).withStartupTimeout(120_000)
  }

  /** Sets start options (checked: an unknown name is an error that lists the valid ones). */
  withOptions(options: DevnetProcessOptions): this {
    this.options = parseStartOptions(
      { ...this.options, ...options },
      { names: CONTAINER_OPTIONS, where: 'IntentDevnetContainer' },
    )
    return this
  }

  /** Starts the container; resolves once the service listens. */
  override async start(): Promise<StartedIntentDevnetContainer> {
    // The devnet container runs on the host network, so with a local engine (a Unix socket) the
    // host is this machine. testcontainers would otherwise look for the bridge network's gateway,
    // which an engine started with --bridge=none (CI inside a container) does not have.
    const dockerHost = process.env.DOCKER_HOST
    if (!process.env.TESTCONTAINERS_HOST_OVERRIDE && (!dockerHost || dockerHost.startsWith('unix://')))
      process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1'
    const client = await getContainerRuntimeClient().catch((error: Error) => {
      throw new NoContainerRuntimeError(error)
    })
    if (!(await client.image.exists(ImageName.fromString(this.image))))
      throw new ImageMissingError(this.image)
    this.withCommand(['up', ...startOptionArgs({ port: 0, ...this.options })])
    // testcontainers' Docker sockets do not keep Node's event loop alive: from plain Node (no test
    // runner holding it open) a start awaited at the top level would end the process silently.
    const keepAlive = setInterval(() => {}, 1000)
    try {
      const started = await super.start()
      return new StartedIntentDevnetContainer(
        started,
        await baseUrlOf(started),
        this.options.apiKey ?? DEFAULT_API_KEY,
      )
    } finally {
      clearInterval(keepAlive)
    }
  }
}

// The withX methods, defined on the prototype just below, one per start option.
export interface IntentDevnetContainer extends StartOptionMethods<IntentDevnetContainer> {}

for (const name of CONTAINER_OPTIONS)
  Object.defineProperty(IntentDevnetContainer.prototype, methodName(name), {
    value(this: IntentDevnetContainer, value: unknown = true) {
      return this.withOptions({ [name]: value })
    },
  })

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
    return createControlClient({ baseUrl: this.baseUrl, apiKey: this.apiKey }).manifest()
  }
}
