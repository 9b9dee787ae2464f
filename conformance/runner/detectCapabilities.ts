import { readFile } from 'node:fs/promises'
import { parse } from 'yaml'
import { z } from 'zod'
import { DevnetManifest } from '../../spec'
import { BaseError } from '../../spec/BaseError'
import { joinUrl } from './buildHttpRequest'
import { learnFromTarget } from './learnProfile'
import { applyProfile, type Profile, SPEC_PROFILE } from './profile'
import { applyCanonicalDefaults } from './runInputs'
import { sendRequest } from './sendRequest'
import type { TargetCapabilities } from './types'

/** Thrown when the target does not answer at all, or a `--chains` file is not valid. */
export class TargetUnreachableError extends BaseError {
  override name = 'Conformance.TargetUnreachableError'
}

/** The `--chains` file, for a target without `GET /_devnet/manifest` (JSON or YAML). */
export const ChainsFile = z.strictObject({
  chains: z.array(z.strictObject({ chainId: z.number().int().positive(), rpcUrl: z.string().url() })).min(1),
  /** Private keys of funded accounts the chain steps may use. */
  accounts: z.array(z.string().regex(/^0x[0-9a-fA-F]{64}$/)).default([]),
  /** Named contract addresses, e.g. `{ compact: '0x…' }` or per chain `{ '8453.compact': '0x…' }`. */
  contracts: z.record(z.string(), z.string()).default({}),
  /** Token addresses by `<chainId>.<SYMBOL>`, e.g. `{ '8453.USDC': '0x…' }`. */
  tokens: z.record(z.string(), z.string()).default({}),
  /** The target's quote lifetime, seconds (what a manifest would advertise). */
  quoteTtlSeconds: z.number().positive().optional(),
})
export type ChainsFile = z.infer<typeof ChainsFile>

/** Parameters of {@link detectCapabilities}. */
export type DetectCapabilitiesParameters = {
  target: string
  apiKey: string
  /** Path of a `--chains` file; it takes precedence over the manifest's chains. */
  chainsFile?: string | undefined
  timeoutMs?: number | undefined
  /** The paths the target serves (default: the spec's); the probes go where it maps them. */
  profile?: Profile | undefined
  /**
   * The target is the simulator this run started itself (no `--target`): under the spec's
   * paths, what its probes answer is known ({@link OWN_SIMULATOR_PROBED}), so they are not sent;
   * its manifest is still read, over the lean client (sendRequest's `ownServer`).
   */
  ownSimulator?: boolean | undefined
}

/**
 * What the probes find on the runner's own simulator under the spec's paths: the control API's
 * faults, every domain route implemented, nothing to learn of paths or fields. Its probes were
 * most of the wait between the simulator's start and the first scenario (9 requests it answers
 * cold, the first quotes among them); detectCapabilities.test.ts checks, against a started
 * simulator, that probing finds exactly this.
 */
export const OWN_SIMULATOR_PROBED = {
  faults: true,
  implemented: { quotes: true, settlement: true, withdrawals: true, deposits: true },
  learned: { notes: [], hints: [] },
} as const satisfies Pick<TargetCapabilities, 'faults' | 'implemented' | 'learned'>

const VERSION_NAMES = { '2026-01.alps': 'alps', '2026-04.blanc': 'blanc' } as const

/**
 * A route request valid by the spec, used to probe whether the target quotes at all (a target
 * still building its domain logic answers 501).
 */
const PROBE_ROUTE_REQUEST = {
  destinationChainId: 8453,
  tokenRequests: [{ tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', amount: '1000000' }],
  account: { address: '0x000000000000000000000000000000000000dEaD', accountType: 'EOA' },
}

/** A withdrawal request valid by the spec (of nothing: the probe only looks for a 501). */
const PROBE_WITHDRAWAL = {
  account: '0x000000000000000000000000000000000000dEaD',
  chainId: 8453,
  tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  amount: 1,
  recipient: '0x000000000000000000000000000000000000dEaD',
}

/**
 * Finds out what the target offers: the devnet control API and its manifest (chains, funded
 * accounts, versions), whether its domain endpoints are implemented (a 501 means not yet), and
 * whether the runner's loopback webhook receiver can reach it.
 *
 * @example
 * const caps = await detectCapabilities({ target: 'http://127.0.0.1:4000', apiKey })
 */
export async function detectCapabilities(
  parameters: DetectCapabilitiesParameters,
): Promise<TargetCapabilities> {
  const { target, apiKey } = parameters
  const timeoutMs = parameters.timeoutMs ?? 10_000
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    /** Already mapped by the profile (and the version to send, none when undefined). */
    as?: { version: string | undefined },
  ) => {
    const mapped =
      parameters.profile && !as
        ? applyProfile(parameters.profile, { method, path, version: 'alps', body })
        : { method, path, body }
    const version = as ? as.version : '2026-01.alps'
    try {
      // sendRequest, as every scenario's request: Node's fetch would load undici for these alone.
      const response = await sendRequest({
        method: mapped.method,
        url: joinUrl(target, mapped.path),
        headers: {
          'x-api-key': apiKey,
          ...(version === undefined ? {} : { 'x-api-version': version }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: mapped.body === undefined ? undefined : JSON.stringify(mapped.body),
        timeoutMs,
        ownServer: parameters.ownSimulator,
      })
      let json: unknown
      try {
        // As fetch's text() read it: a byte-order mark before the JSON is the encoding's.
        json = JSON.parse(response.text.replace(/^\uFEFF/, ''))
      } catch {}
      return { status: response.status, json }
    } catch (cause) {
      const error = cause as Error & { code?: string }
      const why = /^no (complete )?response within/.test(error.message)
        ? `none within ${timeoutMs / 1000} s`
        : (error.code ?? error.message)
      throw new TargetUnreachableError(
        `The target ${target} cannot be reached: ${mapped.method} ${mapped.path} got no answer (${why}).`,
        { cause },
      )
    }
  }

  const caps: TargetCapabilities = {
    target,
    controlApi: false,
    faults: false,
    chains: [],
    accounts: [],
    versions: ['alps', 'blanc'],
    webhooks: isLoopback(target),
    contracts: {},
    tokens: {},
    implemented: {},
  }

  // The chains file first: a file that is not valid is said so whatever the target answers.
  let file: ChainsFile | undefined
  if (parameters.chainsFile)
    try {
      file = ChainsFile.parse(parse(await readFile(parameters.chainsFile, 'utf8')))
    } catch (cause) {
      throw new TargetUnreachableError(
        `The chains file ${parameters.chainsFile} is not valid: ${describeInvalid(cause)}`,
        { cause },
      )
    }

  // The manifest and the probes side by side: the probes need nothing of the manifest.
  const known = parameters.ownSimulator && (parameters.profile ?? SPEC_PROFILE) === SPEC_PROFILE
  const probes = known
    ? undefined
    : Promise.all([
        call('GET', '/_devnet/faults'),
        call('POST', '/intents/route', PROBE_ROUTE_REQUEST),
        call('GET', '/intent-operation/1'),
        call('POST', '/withdrawals', PROBE_WITHDRAWAL),
        call('GET', '/deposit-processor/setup'),
        learnFromTarget(
          parameters.profile ?? SPEC_PROFILE,
          ({ method, path, body, version }) => call(method, path, body, { version }),
          PROBE_ROUTE_REQUEST,
        ),
      ])
  probes?.catch(() => {}) // awaited below, after the manifest (whose failure is said first)
  const manifestResponse = await call('GET', '/_devnet/manifest')
  const manifest = DevnetManifest.safeParse(manifestResponse.json)
  if (manifestResponse.status === 200 && manifest.success) {
    const m = manifest.data
    caps.controlApi = true
    caps.manifest = manifestResponse.json
    caps.chains = m.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl }))
    caps.accounts = m.accounts.map((a) => a.privateKey as `0x${string}`)
    caps.versions = m.service.versions.flatMap((v) =>
      v in VERSION_NAMES ? [VERSION_NAMES[v as keyof typeof VERSION_NAMES]] : [],
    )
    caps.quoteTtlSeconds = m.service.quoteTtlSeconds
    for (const chain of m.chains)
      for (const [name, address] of Object.entries(chain.contracts)) {
        caps.contracts[`${chain.chainId}.${name}`] = address
        caps.contracts[name] ??= address
      }
    for (const chain of m.chains)
      for (const token of chain.tokens) caps.tokens[`${chain.chainId}.${token.symbol}`] = token.address
  }

  if (file) {
    caps.chains = file.chains
    if (file.accounts.length > 0) caps.accounts = file.accounts as `0x${string}`[]
    Object.assign(caps.contracts, file.contracts)
    Object.assign(caps.tokens, file.tokens)
    if (file.quoteTtlSeconds !== undefined) caps.quoteTtlSeconds = file.quoteTtlSeconds
  }
  caps.canonicalDefaults = applyCanonicalDefaults(caps)

  if (!probes) {
    const { faults, implemented, learned } = OWN_SIMULATOR_PROBED
    caps.learned = { notes: [...learned.notes], hints: [...learned.hints] }
    caps.faults = faults
    caps.implemented = { ...implemented }
    return caps
  }
  // A route the target has not built yet answers 501 NOT_IMPLEMENTED.
  const [faults, quotes, settlement, withdrawals, deposits, learned] = await probes
  caps.learned = learned
  caps.faults = faults.status === 200
  caps.implemented = {
    quotes: quotes.status !== 501,
    settlement: settlement.status !== 501,
    withdrawals: withdrawals.status !== 501,
    deposits: deposits.status !== 501,
  }
  return caps
}

/** What is wrong with a chains file, field by field (`chains.0.chainId: …`), or why it could not be read. */
function describeInvalid(cause: unknown): string {
  if (cause instanceof z.ZodError)
    return cause.issues
      .map((issue) => `${issue.path.length ? issue.path.join('.') : '(the file)'}: ${issue.message}`)
      .join('; ')
  return cause instanceof Error ? cause.message : String(cause)
}

function isLoopback(target: string): boolean {
  const host = new URL(target).hostname
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]' || host.startsWith('127.')
}
