import type { FastifyInstance } from 'fastify'
import { BaseError } from '../../spec/BaseError'
import { DEFAULT_API_KEY, DEFAULT_HOST, DEFAULT_PORT } from '../../spec/startOptions'
import { type AppPlugin, buildApp } from './app'
import type { HttpServices } from './domainServices'

// The defaults of a start are stated with its options (spec/startOptions.ts).
export { DEFAULT_API_KEY, DEFAULT_HOST, DEFAULT_PORT }

/** Parameters of {@link startService}. */
export type StartServiceParameters = {
  /** Port to listen on; 0 picks a free one (default 4000, as `intent-devnet up`). */
  port?: number | undefined
  host?: string | undefined
  /** The API key callers must send (default `devnet-key`). */
  apiKey?: string | undefined
  /** More keys it accepts besides `apiKey`, each with its own per-key state (the conformance runner's simulator). */
  extraApiKeys?: readonly string[] | undefined
  /** Reject requests without `x-api-version`. */
  strictVersion?: boolean | undefined
  bodyLimit?: number | undefined
  /** Time a request (headers and body) may take to arrive, in ms (default 30 s). */
  requestTimeoutMs?: number | undefined
  /** Time the request headers may take to arrive, in ms (default and at most `requestTimeoutMs`). */
  headersTimeoutMs?: number | undefined
  logger?: boolean | undefined
  /** The services routes delegate to. */
  services: HttpServices
  /** Plugins registered before the routes (see BuildAppOptions): the composition root's fault plugin. */
  plugins?: readonly AppPlugin[] | undefined
}

/** What {@link startService} returns. */
export type StartServiceReturnType = {
  /** e.g. `http://127.0.0.1:4000`. */
  baseUrl: string
  apiKey: string
  app: FastifyInstance
  /** Stops listening and closes the app (idempotent). */
  close(): Promise<void>
}

/** Why a listen failed, in words: the port in use, a privileged port, a host not of this machine. */
function listenReason(host: string, port: number, cause: unknown): string {
  const { code, message } = (cause ?? {}) as NodeJS.ErrnoException
  if (code === 'EADDRINUSE')
    return `port ${port} is already in use (another intent-devnet or another program listens on it); stop it, or choose another port with --port (0: any free port)`
  if (code === 'EACCES') return `permission denied for port ${port} (ports below 1024 need privileges)`
  if (code === 'EADDRNOTAVAIL') return `${host} is not an address of this machine`
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host ${host} cannot be resolved`
  return message ?? String(cause)
}

/** Thrown when the service cannot listen (port taken, bad host); the message says why. */
export class ListenError extends BaseError {
  override name = 'Up.ListenError'
  constructor(host: string, port: number, cause: unknown) {
    super(`Cannot listen on ${host}:${port}: ${listenReason(host, port, cause)}.`, {
      details: (cause as Error)?.message,
      cause,
      data: { host, port, code: (cause as NodeJS.ErrnoException)?.code },
    })
  }
}

/**
 * Builds the HTTP app on the given services and listens. `startSimulator` is the one caller
 * that builds those services; tests may hand it stubs.
 *
 * @example
 * const { baseUrl, apiKey, close } = await startService({ port: 0, services })
 */
export async function startService(parameters: StartServiceParameters): Promise<StartServiceReturnType> {
  const host = parameters.host ?? DEFAULT_HOST
  const port = parameters.port ?? DEFAULT_PORT
  const apiKey = parameters.apiKey ?? DEFAULT_API_KEY
  const app = await buildApp(
    {
      apiKeys: [apiKey, ...(parameters.extraApiKeys ?? [])],
      strictVersion: parameters.strictVersion,
      bodyLimit: parameters.bodyLimit,
      requestTimeoutMs: parameters.requestTimeoutMs,
      headersTimeoutMs: parameters.headersTimeoutMs,
      logger: parameters.logger,
    },
    parameters.services,
    { plugins: parameters.plugins },
  )
  try {
    await app.listen({ host, port })
  } catch (error) {
    await app.close()
    throw new ListenError(host, port, error)
  }
  const address = app.server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  const urlHost = host.includes(':') ? `[${host}]` : host
  let closing: Promise<void> | undefined
  return {
    baseUrl: `http://${urlHost}:${actualPort}`,
    apiKey,
    app,
    close: () => {
      closing ??= app.close()
      return closing
    },
  }
}
