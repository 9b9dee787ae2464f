import type { InjectOptions } from 'fastify'
import { faultControl } from '../../faultInjection/http/control'
import { withHttpFaults } from '../../faultInjection/http/httpFaults'
import { createFaults, type Faults } from '../../faults/faults'
import { buildApp } from '../app'
import type { HttpServices } from '../domainServices'
import type { HttpConfig } from '../types'
import { stubServices } from './stubServices'

export { REACHED } from './stubServices'

/** The keys test apps accept. */
export const KEY = 'test-key'
export const SECOND_KEY = 'second-key'
export const ALPS = '2026-01.alps'
export const BLANC = '2026-04.blanc'

/** Headers of an authenticated request in a version (none: no version header). */
export const headers = (version?: string, key: string = KEY): Record<string, string> =>
  version === undefined ? { 'x-api-key': key } : { 'x-api-key': key, 'x-api-version': version }

const address = (byte: string) => `0x${byte.repeat(20)}`
export const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
export const ACCOUNT = address('11')

/** A valid execution, for preClaimExecutions. */
export const execution = { to: address('22'), value: '0', data: '0x' }

/** A route request that passes validation, with `preClaimExecutions` of `chains` × `ops`. */
export function routeRequest(preClaim?: { chains: number; ops: number }): Record<string, unknown> {
  const body: Record<string, unknown> = {
    destinationChainId: 8453,
    tokenRequests: [{ tokenAddress: USDC_BASE, amount: '1000000' }],
    account: { address: ACCOUNT, accountType: 'ERC7579', setupOps: [] },
  }
  if (preClaim) {
    const chainIds = ['1', '10', '137', '42161', '8453', '56', '100'].slice(0, preClaim.chains)
    body.preClaimExecutions = Object.fromEntries(
      chainIds.map((chainId) => [chainId, Array.from({ length: preClaim.ops }, () => execution)]),
    )
  }
  return body
}

const pair = ['1', '1000000']
/** A valid `{signedIntentOp}` body of POST /intent-operations. */
export const signedIntentOp = {
  signedIntentOp: {
    sponsor: ACCOUNT,
    nonce: '1',
    expires: '1900000000',
    elements: [
      {
        arbiter: address('33'),
        chainId: '10',
        idsAndAmounts: [pair],
        mandate: {
          recipient: ACCOUNT,
          tokenOut: [pair],
          destinationChainId: '8453',
          fillDeadline: '1900000000',
          qualifier: {
            settlementContext: { settlementLayer: 'INTENT_EXECUTOR', fundingMethod: 'COMPACT' },
            encodedVal: '0x',
          },
          minGas: '0',
        },
      },
    ],
    serverSignature: '0x01',
    signedMetadata: { tokenPrices: { USDC: 1 }, gasPrices: { '10': '1' }, account: { address: ACCOUNT } },
    targetExecutionNonce: '0',
    destinationSignature: '0x02',
    originSignatures: ['0x03'],
  },
}

export const blancSubmit = { signatures: { origin: ['0x01'], destination: '0x02' } }
export const withdrawal = {
  account: ACCOUNT,
  chainId: 8453,
  tokenAddress: USDC_BASE,
  amount: 1,
  recipient: ACCOUNT,
}
export const batchWithdrawal = {
  account: ACCOUNT,
  chainId: 8453,
  transfers: [{ recipient: ACCOUNT, tokenAddress: USDC_BASE, amount: 1 }],
}

/**
 * Builds a test app with two keys and its faults wired as startSimulator wires them (the control
 * service and the HTTP fault plugin on one registry); returns it with that registry.
 */
export async function testApp(config: Partial<HttpConfig> = {}, services: Partial<HttpServices> = {}) {
  const faults: Faults = createFaults()
  const app = await buildApp(
    { apiKeys: [KEY, SECOND_KEY], ...config },
    stubServices({ faults: faultControl(faults), ...services }),
    { plugins: [withHttpFaults(faults)] },
  )
  const request = async (options: InjectOptions) => {
    const response = await app.inject(options)
    const traceId = response.headers['x-trace-id']
    const json = String(response.headers['content-type']).includes('json') ? response.json() : undefined
    return { status: response.statusCode, headers: response.headers, traceId, json, response }
  }
  return { app, faults, request }
}

/** An error body with its random trace id replaced, for snapshots. */
export function scrub(json: unknown): unknown {
  if (json && typeof json === 'object' && 'traceId' in json) return { ...json, traceId: '<trace id>' }
  return json
}
