import { randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  isAddress,
  parseAbi,
  verifyTypedData,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Misbehaviour } from './departures'

/**
 * A second implementation of a slice of the spec, written from the spec and the public
 * reference alone: it shares no code with `simulator/` (nor with `spec`). It serves
 * version `2026-04.blanc` only, at the public service's paths (`POST /quotes`, `POST /intents`,
 * `GET /intents/{id}`), quotes one route, verifies the caller's EIP-712 signatures and fills on
 * the destination chain from a funded solver key. Its departures from the spec are deliberate
 * and listed in {@link DEPARTURES}; everything else it serves as the spec and the public service do.
 */

/** Parameters of {@link startIndependentTarget}. */
export type StartIndependentTargetParameters = {
  apiKey: string
  /** Chains it fills on (RPC URLs of devnet chains, e.g. a simulator's manifest). */
  chains: { chainId: number; rpcUrl: string }[]
  /** A funded key that pays the fills (it must hold the tokens quoted). */
  solverKey: Hex
  /** How long a quote lives, seconds (default 3600, as the public mock). */
  quoteTtlSeconds?: number
  /**
   * Ways it departs from what the runner assumes, each one a vendor's target may have (see
   * {@link MISBEHAVIOURS}): the runner must judge each right.
   */
  misbehave?: Partial<Record<Misbehaviour, boolean>>
}

/** The running target, and how to stop it. */
export type IndependentTarget = { url: string; close: () => Promise<void> }

const VERSION = '2026-04.blanc'
const VERSION_PATTERN = /^\d{4}-\d{2}\.[a-z0-9]+$/
/** The limits it enforces (see DEPARTURES: operations per chain is 12, not 10). */
const MAX_OPS_PER_CHAIN = 12
const MAX_CHAINS = 5
const ERC20 = parseAbi(['function transfer(address to, uint256 amount) returns (bool)'])

type Quote = {
  intentId: string
  account: Address
  destinationChainId: number
  token: Address
  amount: bigint
  expiresAt: number
  typedData: ReturnType<typeof orderTypedData>
}
type Intent = { intentId: string; chainId: number; txHash?: Hex; status: string; timestamp?: number }

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/** The typed data a caller signs for an order: its own EIP-712 struct, signed as given. */
function orderTypedData(quote: Omit<Quote, 'typedData'>, chainId: number) {
  return {
    domain: { name: 'IndependentIntents', version: '1', chainId },
    types: {
      Order: [
        { name: 'intentId', type: 'string' },
        { name: 'account', type: 'address' },
        { name: 'token', type: 'address' },
        { name: 'amount', type: 'uint256' },
        { name: 'destinationChainId', type: 'uint256' },
        { name: 'expires', type: 'uint256' },
      ],
    },
    primaryType: 'Order',
    message: {
      intentId: quote.intentId,
      account: quote.account,
      token: quote.token,
      amount: quote.amount.toString(),
      destinationChainId: String(quote.destinationChainId),
      expires: String(quote.expiresAt),
    },
  } as const
}

/**
 * Starts the independent target on loopback (port 0).
 *
 * @example
 * const target = await startIndependentTarget({ apiKey: 'k', chains, solverKey })
 */
export async function startIndependentTarget(
  parameters: StartIndependentTargetParameters,
): Promise<IndependentTarget> {
  const ttl = parameters.quoteTtlSeconds ?? 3600
  const misbehave = parameters.misbehave ?? {}
  const solver = privateKeyToAccount(parameters.solverKey)
  const quotes = new Map<string, Quote>()
  const intents = new Map<string, Intent>()
  const clients = new Map(
    parameters.chains.map(({ chainId, rpcUrl }) => {
      const chain = defineChain({
        id: chainId,
        name: `chain ${chainId}`,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpcUrl] } },
      })
      return [
        chainId,
        {
          wallet: createWalletClient({ account: solver, chain, transport: http(rpcUrl) }),
          public: createPublicClient({ chain, transport: http(rpcUrl) }),
        },
      ]
    }),
  )

  const quote = (body: Record<string, unknown>) => {
    const caip2 = /^eip155:(\d+)$/.exec(String(body.destinationChainId))
    if (misbehave.caip2Chains && !(typeof body.destinationChainId === 'string' && caip2))
      throw invalid('destinationChainId must be a CAIP-2 chain id (eip155:<chain id>)')
    const destinationChainId = misbehave.caip2Chains ? Number(caip2![1]) : body.destinationChainId
    if (
      typeof destinationChainId !== 'number' ||
      !Number.isInteger(destinationChainId) ||
      destinationChainId < 0
    )
      throw invalid('destinationChainId must be a non-negative integer')
    const requests = body.tokenRequests
    if (!Array.isArray(requests) || requests.length !== 1)
      throw invalid('tokenRequests must hold one token request (this server quotes one token)')
    const [request] = requests as { tokenAddress?: unknown; amount?: unknown }[]
    if (typeof request?.tokenAddress !== 'string' || !isAddress(request.tokenAddress))
      throw invalid('tokenRequests[0].tokenAddress must be an address')
    if (typeof request.amount !== 'string' || !/^\d+$/.test(request.amount))
      throw invalid('tokenRequests[0].amount must be a base-10 integer string')
    if (!misbehave.acceptAnyAmount && BigInt(request.amount) >= 2n ** 256n)
      throw invalid('tokenRequests[0].amount must not exceed 2^256 - 1')
    const account = body.account as { address?: unknown } | undefined
    if (typeof account?.address !== 'string' || !isAddress(account.address))
      throw invalid('account.address must be an address')
    const pre = body.preClaimExecutions
    if (pre !== undefined) {
      if (typeof pre !== 'object' || pre === null || Array.isArray(pre))
        throw invalid('preClaimExecutions must be an object of chain id to executions')
      const chains = Object.entries(pre)
      if (chains.length > MAX_CHAINS)
        throw invalid(`preClaimExecutions names ${chains.length} chains; at most ${MAX_CHAINS} are allowed`)
      for (const [chain, ops] of chains)
        if (!Array.isArray(ops) || ops.length > MAX_OPS_PER_CHAIN)
          throw invalid(`preClaimExecutions.${chain}: at most ${MAX_OPS_PER_CHAIN} operations per chain`)
    }
    if (!clients.has(destinationChainId))
      throw new HttpError(422, 'UNPROCESSABLE_CONTENT', `chain ${destinationChainId} is not served here`)
    const base = {
      intentId: `0x${randomBytes(16).toString('hex')}`,
      account: account.address,
      destinationChainId,
      token: request.tokenAddress,
      amount: BigInt(request.amount),
      expiresAt: Math.floor(Date.now() / 1000) + ttl,
    }
    const typedData = orderTypedData(base, destinationChainId)
    quotes.set(base.intentId, { ...base, typedData })
    // Types the spec does not show (an input's amount, a fee's usd): numbers and strings are both allowed.
    const amount = misbehave.otherTypes ? Number(request.amount) : request.amount
    return {
      routes: [
        {
          intentId: base.intentId,
          expiresAt: base.expiresAt,
          // The public blanc API's estimate (facts §1): one fill on the destination.
          estimatedFillTime: { seconds: 2 },
          cost: {
            input: [{ token: base.token, chainId: destinationChainId, amount }],
            output: [{ token: base.token, chainId: destinationChainId, amount }],
            fees: { breakdown: { gas: { amount: '0', usd: misbehave.otherTypes ? '0.00' : 0 } } },
          },
          signData: { origin: [typedData], destination: typedData },
        },
      ],
    }
  }

  const submit = async (body: Record<string, unknown>) => {
    const intentId = body.intentId
    if (typeof intentId !== 'string' || intentId === '') throw invalid('intentId must be a string')
    const signatures = body.signatures as { origin?: unknown; destination?: unknown } | undefined
    if (
      !Array.isArray(signatures?.origin) ||
      signatures.origin.length === 0 ||
      !signatures.origin.every((s) => typeof s === 'string' && /^0x[0-9a-fA-F]*$/.test(s)) ||
      typeof signatures.destination !== 'string' ||
      !/^0x[0-9a-fA-F]*$/.test(signatures.destination)
    )
      throw invalid('signatures must be {origin: hex[], destination: hex}')
    const stored = quotes.get(intentId)
    if (!stored || stored.expiresAt <= Math.floor(Date.now() / 1000))
      throw new HttpError(
        404,
        'NOT_FOUND',
        `No quote ${intentId}: it expired or was already submitted; re-quote.`,
      )
    const all = [...(signatures.origin as Hex[]), signatures.destination as Hex]
    for (const signature of all) {
      // The message keeps its integers as strings (it is sent as JSON); viem encodes them as uint256.
      const ok = await verifyTypedData({
        address: stored.account,
        ...stored.typedData,
        signature,
      } as unknown as Parameters<typeof verifyTypedData>[0]).catch(() => false)
      if (!ok) throw new HttpError(400, 'VALIDATION_ERROR', 'a signature is not the account’s over signData')
    }
    quotes.delete(intentId)
    const intent: Intent = { intentId, chainId: stored.destinationChainId, status: 'PENDING' }
    intents.set(intentId, intent)
    void fill(stored, intent)
    return { intentId, status: 'PENDING' }
  }

  // One send at a time per chain from the solver key: two fills at once would both read the same
  // pending nonce, and the node refuses the second ("nonce too low"). The runner runs scenarios side
  // by side, so two intents do settle at once (settlement.blanc-lifecycle beside
  // quotes.blanc-quote-expiry): before this queue one of them failed under load, and the runner
  // rightly reported it FAILED.
  const sending = new Map<number, Promise<unknown>>()
  const sendInTurn = <T>(chainId: number, send: () => Promise<T>): Promise<T> => {
    const sent = (sending.get(chainId) ?? Promise.resolve()).then(send, send)
    sending.set(
      chainId,
      sent.catch(() => {}),
    )
    return sent
  }

  const fill = async (stored: Quote, intent: Intent) => {
    const client = clients.get(stored.destinationChainId)!
    try {
      const hash = await sendInTurn(stored.destinationChainId, () =>
        client.wallet.writeContract({
          address: stored.token,
          abi: ERC20,
          functionName: 'transfer',
          args: [stored.account, stored.amount],
        }),
      )
      intent.txHash = hash
      const receipt = await client.public.waitForTransactionReceipt({ hash })
      intent.status = receipt.status === 'success' ? 'COMPLETED' : 'FAILED'
      intent.timestamp = Math.floor(Date.now() / 1000)
    } catch {
      intent.status = 'FAILED'
    }
  }

  const status = (id: string) => {
    const intent = intents.get(id)
    if (!intent) throw new HttpError(404, 'NOT_FOUND', `No intent ${id}.`)
    return {
      intentId: intent.intentId,
      status: intent.status,
      operations: [
        {
          chain: `eip155:${intent.chainId}`,
          items: [
            {
              type: 'FILL',
              status: intent.status === 'PENDING' ? 'PENDING' : intent.status,
              txHash: intent.txHash ?? null,
              timestamp: intent.timestamp ?? null,
            },
          ],
        },
      ],
    }
  }

  const handle = async (req: IncomingMessage, text: string): Promise<{ status: number; body: unknown }> => {
    const key = req.headers['x-api-key']
    if (key === undefined || key === '') throw new HttpError(401, 'UNAUTHORIZED', 'x-api-key is required')
    if (key !== parameters.apiKey) throw new HttpError(403, 'FORBIDDEN', 'this x-api-key is not known here')
    const version =
      req.headers['x-api-version'] === undefined && misbehave.headerlessAsBlanc
        ? VERSION
        : req.headers['x-api-version']
    if (typeof version !== 'string' || version === '')
      throw invalid(`x-api-version is required; this server serves ${VERSION}`)
    if (!VERSION_PATTERN.test(version))
      throw invalid(`x-api-version '${version}' is malformed (YYYY-MM.name)`)
    if (version !== VERSION)
      throw invalid(`x-api-version ${version} is not served; this server serves ${VERSION}`)
    const path = (req.url ?? '/').split('?')[0]!
    const json = () => {
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        throw invalid('the body is not valid JSON')
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw invalid('the body is not an object')
      return body as Record<string, unknown>
    }
    if (req.method === 'POST' && path === '/quotes') return { status: 200, body: quote(json()) }
    if (req.method === 'POST' && path === '/intents') return { status: 201, body: await submit(json()) }
    const intentPath = /^\/intents\/([^/]+)$/.exec(path)
    if (req.method === 'GET' && intentPath)
      return { status: 200, body: status(decodeURIComponent(intentPath[1]!)) }
    throw new HttpError(404, 'NOT_FOUND', `${req.method} ${path} is not served`)
  }

  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= 1_000_000) chunks.push(chunk)
    })
    req.on('end', () => {
      const traceId = randomUUID()
      const send = (status: number, body: unknown) => {
        const wire = onTheWire(body, misbehave)
        res.writeHead(status, { ...wire.headers, 'x-trace-id': traceId }).end(wire.payload)
      }
      if (size > 1_000_000) return send(413, { code: 'VALIDATION_ERROR', message: 'body too large', traceId })
      handle(req, Buffer.concat(chunks).toString('utf8')).then(
        ({ status, body }) => send(status, body),
        (error: unknown) =>
          error instanceof HttpError
            ? send(
                error.status,
                misbehave.reasonsInDetails
                  ? {
                      code: error.code,
                      message: 'The request was not accepted.',
                      traceId,
                      details: [{ path: /^[\w.[\]-]+/.exec(error.message)?.[0], message: error.message }],
                    }
                  : { code: error.code, message: error.message, traceId },
              )
            : send(500, { code: 'INTERNAL_ERROR', message: 'internal error', traceId }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * An answer as it goes out: JSON, or what a vendor's stack may make of it (the misbehaviours
 * `extraFields`: a field the spec does not name in every answer; `wireFormat`: a charset and a
 * byte-order mark, gzip whether asked or not, as a proxy in front of a target may).
 */
function onTheWire(body: unknown, misbehave: Partial<Record<Misbehaviour, boolean>>) {
  const shown =
    misbehave.extraFields && typeof body === 'object' && body !== null
      ? { ...body, _links: { docs: 'https://example.invalid/docs' } }
      : body
  if (!misbehave.wireFormat)
    return { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(shown) }
  return {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' },
    payload: gzipSync(Buffer.from(`\uFEFF${JSON.stringify(shown)}`, 'utf8')),
  }
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'VALIDATION_ERROR', message)
}
