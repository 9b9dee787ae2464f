// Own devnet, not the shared one: it drives in-process quoting with the Devnet object (clock, allocator key), which a worker of the shared devnet does not have.
import {
  type Address,
  concat,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  type Hex,
  keccak256,
  maxUint256,
  parseEther,
  parseEventLogs,
  parseUnits,
  toHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { addresses, tokensByChain } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { AlpsRouteResponse, EmissaryConfig, type IntentOp } from '../../spec'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import { type Devnet, startDevnet } from '../devnet/startDevnet'
import { compactTypedData } from '../eip712/typedData'
import type { VersionedQuoting } from '../http/testing/versionedQuoting'
import { allocatorDigest, compactClaimArg, compactHashes } from '../settlement/contractArgs'
import { depositToCompactFor } from '../settlement/testing/e2eClient'
import { type NexusAccountInfo, nexusAccountFor } from '../settlement/testing/nexusAccount'
import {
  emissaryEnableMessage,
  emissaryEnableTypedData,
  type IssuedEmissaryConfig,
} from '../signing/emissary'
import { verifyServerSignature } from '../signing/serverSignature'
import type { QuotingServiceInstance } from './createQuotingService'
import { createTestQuoting } from './testing/createTestQuoting'

/**
 * End to end on a devnet: a quote for a smart account funded through the Compact carries an
 * emissaryConfig; the account's owner signs userSig, the config is enabled on the IntentEmissary
 * and assigned on the Compact, and a claim whose sponsor signature only the emissary's validator
 * accepts goes through.
 */

const chainId = 8453
const entryPoint07: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'
const usdc = tokensByChain[chainId]?.find((t) => t.symbol === 'USDC')?.address as Address
const owner = privateKeyToAccount(keccak256(toHex('quoting/emissary.test owner')))

let devnet: Devnet
let quoting: QuotingServiceInstance & VersionedQuoting
let smart: NexusAccountInfo

const chain = () => devnet.chain(chainId)

async function mined(hash: Promise<Hex>) {
  const receipt = await chain().publicClient.waitForTransactionReceipt({
    hash: await hash,
    pollingInterval: 20,
  })
  if (receipt.status !== 'success') throw new Error(`${receipt.transactionHash} reverted`)
  return receipt
}

/** The smart account calls `target` itself: ERC-7579 `execute` (single call) sent as the EntryPoint. */
async function asAccount(target: Address, data: Hex) {
  const { testClient } = chain()
  await testClient.impersonateAccount({ address: entryPoint07 })
  await testClient.setBalance({ address: entryPoint07, value: parseEther('1') })
  try {
    const mode = `0x${'00'.repeat(32)}` as Hex // single call, revert on failure
    return await mined(
      chain().relayerClient.writeContract({
        account: entryPoint07,
        address: smart.address,
        abi: artifacts.NexusAccount.abi,
        functionName: 'execute',
        args: [mode, encodePacked(['address', 'uint256', 'bytes'], [target, 0n, data])],
      }),
    )
  } finally {
    await testClient.stopImpersonatingAccount({ address: entryPoint07 })
  }
}

/** The Compact claim the relayer sends through the arbiter for element 0, signed with `sponsorSignature` (the relayer's own argument builders). */
async function claimArgs(intentOp: IntentOp, sponsorSignature: Hex) {
  const separator = await chain().publicClient.readContract({
    address: addresses.compact,
    abi: artifacts.TheCompact.abi,
    functionName: 'DOMAIN_SEPARATOR',
  })
  const allocatorData = await devnet.keys.allocator.account.sign({
    hash: allocatorDigest(separator, compactHashes(intentOp).claimHash),
  })
  const signed = {
    intentOp,
    originSignatures: [sponsorSignature],
    destinationSignature: sponsorSignature,
    setupOps: [],
  }
  return compactClaimArg(signed, 0, allocatorData)
}

const claimAbi = [
  ...artifacts.IntentArbiter.abi,
  ...artifacts.TheCompact.abi.filter((i) => i.type === 'error' || i.type === 'event'),
]

beforeAll(async () => {
  devnet = await startDevnet({ chainIds: [chainId], accountCount: 1 })
  quoting = createTestQuoting({
    chains: devnet.chains,
    server: devnet.keys.server.account,
    allocatorSigner: devnet.keys.allocator.account,
    clock: devnet,
  })
  smart = await nexusAccountFor(chain().publicClient, owner)
  const funder = devnet.keys.accounts[0]?.account as NonNullable<
    (typeof devnet.keys.accounts)[number]
  >['account']
  for (const op of smart.setupOps)
    await mined(chain().relayerClient.sendTransaction({ account: funder, to: op.to, data: op.data }))
  await depositToCompactFor(devnet, funder, chainId, 'USDC', parseUnits('500', 6), smart.address)
}, 120_000)

afterAll(async () => {
  await devnet?.stop()
})

test('EOA quotes carry no emissaryConfig', async () => {
  const eoa = devnet.keys.accounts[0]?.address as Address
  const { intentOp } = await quoting.routeAlps({
    destinationChainId: chainId,
    tokenRequests: [{ tokenAddress: usdc, amount: parseUnits('10', 6).toString() }],
    account: { address: eoa, accountType: 'EOA' },
  })
  expect(intentOp.signedMetadata.account).not.toHaveProperty('emissaryConfig')
})

test('a smart account enables the quoted emissaryConfig, assigns it, and a claim verifies through it', async () => {
  const response = await quoting.routeAlps({
    destinationChainId: chainId,
    tokenRequests: [{ tokenAddress: usdc, amount: parseUnits('100', 6).toString() }],
    account: { address: smart.address, accountType: 'ERC7579' },
  })
  const { intentOp } = response
  // The response schema keeps the devnet's extra emissaryEnable fields.
  expect(AlpsRouteResponse.parse(JSON.parse(JSON.stringify(response)))).toEqual(
    JSON.parse(JSON.stringify(response)),
  )
  expect(await verifyServerSignature(intentOp, devnet.keys.server.address)).toBe(true)
  const account = intentOp.signedMetadata.account as { accountContext: object; emissaryConfig?: unknown }
  expect(account.accountContext).toMatchObject({ fundingMethod: 'COMPACT', isSmartAccount: true })
  const config = EmissaryConfig.parse(account.emissaryConfig) as IssuedEmissaryConfig
  expect(config).toMatchObject({
    validatorAddress: addresses.ownableValidator,
    emissaryAddress: addresses.emissary,
    emissaryEnable: { userSig: '0x', lockTag: DEVNET_LOCK_TAG },
    settings: { allocator: addresses.allocator },
  })

  // The owner's raw ECDSA over the compact: not the account's ERC-1271 form (no validator prefix).
  const sponsorSignature = await owner.signTypedData(compactTypedData(intentOp) as never)
  const args = await claimArgs(intentOp, sponsorSignature)
  const simulate = () =>
    chain().publicClient.simulateContract({
      account: devnet.keys.relayer.account,
      address: addresses.arbiter,
      abi: claimAbi,
      functionName: 'claimCompact',
      args: [args],
    })
  await expect(simulate()).rejects.toThrow('InvalidSignature')

  // userSig: the account's own ERC-1271 signature (default-validator prefix ‖ owner's ECDSA).
  const message = emissaryEnableMessage(smart.address, config)
  const userSig = concat([zeroAddress, await owner.signTypedData(emissaryEnableTypedData(message))])
  await mined(
    chain().relayerClient.writeContract({
      address: addresses.emissary,
      abi: artifacts.IntentEmissary.abi,
      functionName: 'enable',
      args: [message, config.emissaryEnable.allocatorSig, userSig],
    }),
  )
  // Enabled but not yet assigned on the Compact: still refused.
  await expect(simulate()).rejects.toThrow('InvalidSignature')

  await asAccount(
    addresses.compact,
    encodeFunctionData({
      abi: artifacts.TheCompact.abi,
      functionName: 'assignEmissary',
      args: [config.emissaryEnable.lockTag, config.emissaryAddress as Address],
    }),
  )
  const [status, , current] = await chain().publicClient.readContract({
    address: addresses.compact,
    abi: artifacts.TheCompact.abi,
    functionName: 'getEmissaryStatus',
    args: [smart.address, DEVNET_LOCK_TAG],
  })
  expect([status, current]).toEqual([1, addresses.emissary])

  await simulate()
  const receipt = await mined(
    chain().relayerClient.writeContract({
      address: addresses.arbiter,
      abi: claimAbi,
      functionName: 'claimCompact',
      args: [args],
    }),
  )
  const claims = parseEventLogs({ abi: artifacts.TheCompact.abi, logs: receipt.logs, eventName: 'Claim' })
  expect(claims.map((c) => c.args.sponsor)).toEqual([smart.address])
})

test('blanc: the COMPACT route of a smart account carries emissaryConfig, its PERMIT2 route does not', async () => {
  const funder = devnet.keys.accounts[0]?.account as NonNullable<
    (typeof devnet.keys.accounts)[number]
  >['account']
  await mined(
    chain().relayerClient.writeContract({
      account: funder,
      address: usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [smart.address, parseUnits('200', 6)],
    }),
  )
  await asAccount(
    usdc,
    encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [addresses.permit2, maxUint256] }),
  )
  const { routes } = await quoting.routeBlanc({
    destinationChainId: chainId,
    tokenRequests: [{ tokenAddress: usdc, amount: parseUnits('50', 6).toString() }],
    account: { address: smart.address, accountType: 'ERC7579' },
  })
  const byMethod = Object.fromEntries(
    routes.map((r) => {
      const stored = quoting.quotes.get(r.intentId)?.quote
      return [stored?.fundingMethod, stored?.intentOp.signedMetadata.account as Record<string, unknown>]
    }),
  )
  expect(Object.keys(byMethod).sort()).toEqual(['COMPACT', 'PERMIT2'])
  expect(EmissaryConfig.parse(byMethod.COMPACT?.emissaryConfig)).toMatchObject({
    emissaryAddress: addresses.emissary,
  })
  expect(byMethod.PERMIT2).not.toHaveProperty('emissaryConfig')
})
