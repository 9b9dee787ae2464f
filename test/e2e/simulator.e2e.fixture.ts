import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  parseUnits,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, expect } from 'vitest'
import { addresses } from '../../contracts/addresses'
import { ExecutorTestCounter } from '../../contracts/generated/artifacts'
import { isolateDevnet } from '../../integrations/vitest'
import type { TypedDataJson } from '../../simulator/eip712/typedData'
import {
  compactTypedData,
  permit2TypedData,
  singleChainOpsTypedData,
  toOpJson,
} from '../../simulator/eip712/typedData'
import { type IntentSigner, signAs, tokenAddress } from '../../simulator/settlement/testing/buildSignedIntent'
import {
  ALPS,
  BLANC,
  createE2eClient,
  isForwardRunToCompleted,
  minedTransactionProblem,
} from '../../simulator/settlement/testing/e2eClient'
import { sharedDevnet } from '../support/sharedDevnet'

/** `n` USDC in raw units (6 decimals). */
export const usdc = (n: number) => parseUnits(String(n), 6)
/** The destination chain of these tests. */
export const DEST = 8453
/** The counter contract the fixture places on the destination: destination executions bump it. */
export const COUNTER = getAddress('0x00000000000000000000000000000000c0ffee01')

/** A fresh account of these tests, by label. */
export const owner = (label: string) => privateKeyToAccount(keccak256(toHex(`simulator.e2e ${label}`)))
/** A stranger's address (no funds), by label. */
export const stranger = (label: string) => owner(`stranger ${label}`).address
/** USDC's address on a chain. */
export const usdcOf = (chainId: number) => tokenAddress(chainId, 'USDC')
/** A destination execution that bumps the counter by `by` for its caller. */
export const bump = (by: bigint) => ({
  to: COUNTER,
  value: '0',
  data: encodeFunctionData({ abi: ExecutorTestCounter.abi, functionName: 'bump', args: [by] }),
})
/** A destination execution that transfers or approves a token. */
export const erc20Call = (
  token: Address,
  functionName: 'transfer' | 'approve',
  to: Address,
  amount: bigint,
) => ({
  to: token,
  value: '0',
  data: encodeFunctionData({ abi: erc20Abi, functionName, args: [to, amount] }),
})

/**
 * End to end against the composed simulator (startSimulator: devnet + quoting + settlement +
 * withdrawals + deposits + HTTP) of the shared-devnet project, exactly as an integrator runs it.
 * Registers the calling file's isolation (a snapshot for the file, with a small counter contract
 * placed on the destination, and one for each test) and returns the devnet (`sim`), an HTTP
 * client of it, and the helpers of simulator.e2e.test.ts: accounts, the counter, and a whole
 * round trip (quote, sign, submit, follow to COMPLETED, every hash checked) in each version.
 */
export function useSimulatorE2e() {
  const sim = sharedDevnet()
  const http = createE2eClient(sim)

  isolateDevnet({ scope: 'file' })
  beforeAll(async () => {
    // A small contract on the destination whose state destination executions change.
    await sim.devnet
      .chain(DEST)
      .testClient.setCode({ address: COUNTER, bytecode: ExecutorTestCounter.deployedBytecode })
  }, 180_000)

  isolateDevnet()

  const funder = (i: number) => sim.devnet.keys.accounts[i]!.account
  const counts = (account: Address) =>
    sim.devnet.chain(DEST).publicClient.readContract({
      address: COUNTER,
      abi: ExecutorTestCounter.abi,
      functionName: 'counts',
      args: [account],
    })
  const hasCode = async (chainId: number, address: Address) => {
    const code = await sim.devnet.chain(chainId).publicClient.getCode({ address })
    return !!code && code !== '0x'
  }

  /** Every hash in an alps status body is a mined transaction to the filler / the arbiter on the right chain. */
  async function expectAlpsHashes(status: {
    destinationChainId: number
    fillTransactionHash: Hex
    claims: { chainId: number; claimTransactionHash: Hex; status: string }[]
  }) {
    expect(
      await minedTransactionProblem(
        sim.devnet,
        status.destinationChainId,
        status.fillTransactionHash,
        addresses.filler,
      ),
    ).toBeUndefined()
    for (const claim of status.claims) {
      expect(claim.status).toBe('COMPLETED')
      expect(
        await minedTransactionProblem(
          sim.devnet,
          claim.chainId,
          claim.claimTransactionHash,
          addresses.arbiter,
        ),
      ).toBeUndefined()
    }
  }

  /** Same for a blanc status body: FILL items → filler, CLAIM items → arbiter, on the operation's chain. */
  async function expectBlancHashes(status: {
    operations: { chain: number; items: { type: string; status: string; txHash: Hex }[] }[]
  }) {
    const items = status.operations.flatMap((o) => o.items.map((item) => ({ ...item, chain: o.chain })))
    expect(items.filter((i) => i.type === 'FILL')).toHaveLength(1)
    for (const item of items) {
      expect(item.status).toBe('COMPLETED')
      const to = item.type === 'FILL' ? addresses.filler : addresses.arbiter
      expect(await minedTransactionProblem(sim.devnet, item.chain, item.txHash, to)).toBeUndefined()
    }
    return items
  }

  /** alps: quote, sign every origin (and the destination ops, when any) as `signer`, submit, follow. */
  async function alpsRoundTrip(parameters: { signer: IntentSigner; request: Record<string, unknown> }) {
    const route = await http.call('POST', '/intents/route', parameters.request, ALPS)
    expect(route.status, JSON.stringify(route.body)).toBe(200)
    expect(route.body.intentCost.hasFulfilledAll).toBe(true)
    const intentOp = route.body.intentOp
    const origin: TypedDataJson[] = intentOp.elements.map(
      (element: Parameters<typeof permit2TypedData>[0]) =>
        element.mandate.qualifier.settlementContext.fundingMethod === 'COMPACT'
          ? compactTypedData(intentOp)
          : permit2TypedData(element, intentOp.nonce, intentOp.expires),
    )
    const originSignatures = await Promise.all(origin.map((td) => signAs(parameters.signer, td)))
    const mandate = intentOp.elements[0].mandate
    const destinationSignature = mandate.destinationOps.ops.length
      ? await signAs(
          parameters.signer,
          singleChainOpsTypedData({
            account: intentOp.sponsor,
            nonce: intentOp.nonce,
            destinationChainId: Number(mandate.destinationChainId),
            op: toOpJson(mandate.destinationOps),
          }),
        )
      : originSignatures.at(-1)
    const submitted = await http.call('POST', '/intent-operations', {
      signedIntentOp: { ...intentOp, originSignatures, destinationSignature },
    })
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201)
    expect(submitted.body.result.status).toBe('PENDING')
    const { body, seen } = await http.follow(`/intent-operation/${submitted.body.result.id}`, ALPS)
    expect(body.status, JSON.stringify(body)).toBe('COMPLETED')
    expect(seen[0]).toBe('PENDING')
    expect(isForwardRunToCompleted(seen), seen.join(' → ')).toBe(true)
    await expectAlpsHashes(body)
    return { intentOp, status: body, seen }
  }

  /** blanc: quote, pick a route, sign its signData as given (origin[] and destination), submit, follow. */
  async function blancRoundTrip(parameters: {
    signer: IntentSigner
    request: Record<string, unknown>
    pick?: (route: { fundingMethod: string; cost: { input: { chainId: number }[] } }) => boolean
    /** The public paths (POST /quotes, POST /intents) instead of the spec's. */
    publicPaths?: boolean
  }) {
    const quote = await http.call(
      'POST',
      parameters.publicPaths ? '/quotes' : '/intents/route',
      parameters.request,
      BLANC,
    )
    expect(quote.status, JSON.stringify(quote.body)).toBe(200)
    const route = parameters.pick ? quote.body.routes.find(parameters.pick) : quote.body.routes[0]
    expect(
      route,
      JSON.stringify(quote.body.routes.map((r: { fundingMethod: string }) => r.fundingMethod)),
    ).toBeDefined()
    const origin = await Promise.all(
      route.signData.origin.map((td: TypedDataJson) => signAs(parameters.signer, td)),
    )
    const destination = await signAs(parameters.signer, route.signData.destination)
    const submitted = parameters.publicPaths
      ? await http.call(
          'POST',
          '/intents',
          { intentId: route.intentId, signatures: { origin, destination } },
          BLANC,
        )
      : await http.call(
          'POST',
          `/intents/${route.intentId}/submit`,
          { signatures: { origin, destination } },
          BLANC,
        )
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201)
    expect(submitted.body.intentId).toBe(route.intentId)
    if (!parameters.publicPaths) expect(submitted.body.status).toBe('PENDING')
    const { body, seen } = await http.follow(`/intents/${route.intentId}`, BLANC)
    expect(body.status, JSON.stringify(body)).toBe('COMPLETED')
    expect(seen[0]).toBe('PENDING')
    expect(isForwardRunToCompleted(seen), seen.join(' → ')).toBe(true)
    const items = await expectBlancHashes(body)
    return { route, status: body, seen, items }
  }

  return { sim, http, funder, counts, hasCode, expectAlpsHashes, alpsRoundTrip, blancRoundTrip }
}
