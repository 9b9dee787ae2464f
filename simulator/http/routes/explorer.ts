import { readdirSync, readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { tenantIdOf } from '../../deposits/tenants'
import type { PublishedEvent } from '../../events/eventBus'
import type { EXPLORER_ROUTES } from '../../explorer/routes'
import { ApiError } from '../errorCodes'
import { DEFAULT_API_KEY } from '../plugins/auth'
import { TRACE_ID_HEADER } from '../plugins/traceId'
import type { RouteHandlers } from '../registerRoutes'

/** The page's files, served as they are (plain HTML, CSS and JS modules: no build, no CDN). */
const ASSET_DIR = fileURLToPath(new URL('../explorer/', import.meta.url))
const ASSET_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
}
/** Every script module and style sheet of the page's directory, by file name. */
const assetFiles = () =>
  readdirSync(ASSET_DIR).flatMap((name) => {
    const type = ASSET_TYPES[name.split('.').pop() ?? '']
    return type ? [[name, type] as const] : []
  })

/** Only this origin's files and calls: the page cannot load anything from elsewhere. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** Seconds between SSE comments that keep idle connections (and proxies) open. */
const HEARTBEAT_MS = 15_000

const isLoopback = (address: string | undefined) =>
  address !== undefined &&
  (address === '::1' ||
    address.startsWith('127.') ||
    address.startsWith('::ffff:127.') ||
    (isIP(address) === 0 && address === 'localhost'))

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** One server-sent event: `id` (its seq), `event` (its type) and the JSON `data`, without the tenant. */
function formatEvent(event: PublishedEvent): string {
  const { seq, ...rest } = event
  const data = 'tenant' in rest ? (({ tenant: _, ...visible }) => visible)(rest) : rest
  return `id: ${seq}\nevent: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`
}

/**
 * Handlers of the devnet explorer's routes (simulator/explorer/routes.ts): the page
 * (`GET /explorer`, no key: it asks for one), its live feed (`GET /_devnet/events`, server-sent
 * events, keyed like the control API) and the read endpoints it needs under `/_devnet/explorer/`
 * (intents with timelines, the quote store, chains, decoded transactions). Deposits and webhooks
 * come from the deposit processor's routes.
 *
 * @example
 * registerRoutes(app, EXPLORER_ROUTES, explorerHandlers(app))
 */
export function explorerHandlers(app: FastifyInstance): RouteHandlers<typeof EXPLORER_ROUTES> {
  const { explorer, events } = app.services
  const page = readFileSync(`${ASSET_DIR}index.html`, 'utf8')
  const assets = new Map(
    assetFiles().map(([name, type]) => [name, { type, body: readFileSync(`${ASSET_DIR}${name}`) }]),
  )
  const streams = new Set<() => void>()
  app.addHook('onClose', async () => {
    for (const end of [...streams]) end()
  })

  return {
    explorerPage: async (request, reply) => {
      // Filled in only where it cannot leak: a devnet on loopback that accepts the default key.
      const prefill =
        app.httpConfig.apiKeys.includes(DEFAULT_API_KEY) &&
        isLoopback(request.socket.localAddress) &&
        isLoopback(request.socket.remoteAddress)
          ? DEFAULT_API_KEY
          : ''
      reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', CONTENT_SECURITY_POLICY)
        .header('cache-control', 'no-store')
      return page.replace('{{DEFAULT_KEY}}', escapeHtml(prefill))
    },
    explorerAsset: async (request, reply) => {
      const asset = assets.get(request.params.file)
      if (!asset) throw new ApiError('NOT_FOUND', `No explorer asset ${request.params.file}.`)
      reply.type(asset.type).header('cache-control', 'no-cache')
      return asset.body
    },
    events: (request, reply) => {
      const types = request.query.types ? new Set(request.query.types.split(',')) : undefined
      const lastEventId = Number(request.headers['last-event-id'])
      const after = request.query.after ?? (Number.isSafeInteger(lastEventId) ? lastEventId : undefined)
      // Deposits and webhooks belong to a tenant (its key): a feed shows only the caller's.
      const tenant = tenantIdOf(request.tenant)
      reply.hijack()
      const raw = reply.raw
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        [TRACE_ID_HEADER]: request.id,
      })
      raw.write(`retry: 1000\n: intent-devnet events, last seq ${events.lastSeq}\n\n`)
      const unsubscribe = events.subscribe(
        (event) => {
          if (types && !types.has(event.type)) return
          if ('tenant' in event && event.tenant !== tenant) return
          raw.write(formatEvent(event))
        },
        { after },
      )
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS)
      heartbeat.unref()
      const end = () => {
        clearInterval(heartbeat)
        unsubscribe()
        streams.delete(end)
        if (!raw.writableEnded) raw.end()
      }
      streams.add(end)
      request.raw.on('close', end)
      raw.on('error', end)
    },
    explorerIntents: (request) => explorer.listIntents(request.query),
    explorerIntent: async (request) => {
      const intent = await explorer.getIntent(request.params.id)
      if (!intent) throw new ApiError('NOT_FOUND', `No intent ${request.params.id}.`)
      return intent
    },
    explorerQuotes: (request) => explorer.listQuotes(request.query),
    explorerChains: () => explorer.chains(),
    explorerTransaction: async (request) => {
      const { chainId, hash } = request.params
      const tx = await explorer.getTransaction(chainId, hash as `0x${string}`)
      if (!tx) throw new ApiError('NOT_FOUND', `No transaction ${hash} on chain ${chainId}.`)
      return tx
    },
  }
}
