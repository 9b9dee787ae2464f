import { type Address, parseEther } from 'viem'
import { tokensByChain } from '../../../contracts/addresses'
import type { DevnetChain } from '../chain'
import type { ChainBootReport } from '../devnetState'
import { DevnetError } from '../errors'
import { FUNDING, planFunding } from '../funding'
import type { DevKeys } from '../keys'
import { getArtifact, isPlacedCode, type Placement, placementTable } from '../placement'
import { sendCalls } from '../sendCalls'
import type { SavedChainState } from '../stateDir'

/**
 * True when a chain started from the baked boot state holds it: its head is the bake's last
 * block of this chain (number and hash) and the allocator's code is ours (one batched round trip).
 */
export async function holdsBootState(
  chain: DevnetChain,
  baked: { blockNumber: number; blockHash: string },
): Promise<boolean> {
  const allocator = placementTable(chain.chainId).find((row) => row.name === 'allocator')!
  const [head, code] = await Promise.all([
    chain.publicClient.getBlock({ blockTag: 'latest' }),
    chain.publicClient.getCode({ address: allocator.address }),
  ])
  return (
    Number(head.number) === baked.blockNumber &&
    head.hash === baked.blockHash &&
    isPlacedCode(code, getArtifact(allocator.artifact)!)
  )
}

/**
 * Places the contracts and funds the accounts on one chain (exported for the boot state's bake,
 * bootState.ts). With loaded state or on a fork,
 * only contracts whose address has no code are placed (a loaded contract whose code changed
 * since is replaced in place, keeping its storage); funding is skipped when state was loaded.
 */
export async function bootChain(parameters: {
  chain: DevnetChain
  keys: DevKeys
  saved: SavedChainState | undefined
  forked: boolean
  /** Ether of each test account (default {@link FUNDING}.account.ETH). */
  balance?: number | undefined
  log: (line: string) => void
}): Promise<ChainBootReport> {
  const { chain, keys, saved, forked, log } = parameters
  const state = saved?.state
  const { testClient, publicClient, chainId } = chain
  if (state) await testClient.loadState({ state })

  const table = placementTable(chainId)
  const rows = table.map((row) => {
    const artifact = getArtifact(row.artifact)
    if (!artifact)
      throw new DevnetError(`Contract ${row.artifact} is not in contracts/generated/artifacts.ts.`)
    return { row, artifact }
  })
  const fresh = !state && !forked
  const codes = fresh
    ? undefined
    : await Promise.all(rows.map(({ row }) => publicClient.getCode({ address: row.address })))

  const toPlace: Placement[] = []
  const replace: Placement[] = []
  rows.forEach(({ row, artifact }, i) => {
    const code = codes?.[i]
    if (!code || code === '0x') toPlace.push(row)
    else if (!forked && !isPlacedCode(code, artifact)) replace.push(row)
  })
  await Promise.all([
    ...[...toPlace, ...replace].map((row) =>
      testClient.setCode({ address: row.address, bytecode: getArtifact(row.artifact)!.deployedBytecode }),
    ),
    // The funder pays for boot's transactions.
    testClient.setBalance({ address: keys.funder.address, value: parseEther(String(FUNDING.funder.ETH)) }),
  ])
  const tokens = tokensByChain[chainId] ?? []
  const context = { chainId, keys, tokens }
  const calls = toPlace.flatMap((row) => row.init?.(context) ?? [])
  // On a fork whose allocator was already live, our allocator's registration still has to hold.
  if (forked && !toPlace.some((row) => row.name === 'allocator'))
    calls.push(
      ...(table
        .find((row) => row.name === 'allocator')
        ?.init?.(context)
        .slice(1) ?? []),
    )
  // Placement's and funding's transactions go out together: one batch, one or two blocks.
  const funding = state
    ? undefined
    : await planFunding({
        chain,
        keys,
        tokens,
        compactDeposits: true,
        fresh,
        accountEther: parameters.balance,
      })
  await sendCalls(chain, keys.funder.address, [...calls, ...(funding?.calls ?? [])])
  // The relayer paid the gas of its approvals (funding.ts): it starts with its ether whole.
  if (funding)
    await testClient.setBalance({
      address: keys.relayer.address,
      value: parseEther(String(FUNDING.relayer.ETH)),
    })
  if (forked) await overrideAllocatorSigner(chain, keys.allocator.address)

  if (!funding)
    log(
      `chain ${chainId}: state loaded (${saved?.source}), ${toPlace.length + replace.length} contracts (re)placed`,
    )
  else
    log(
      `chain ${chainId}: ${toPlace.length} contracts placed, funded (${funding.methods.map((m) => `${m.token.symbol} by ${m.method}`).join(', ')})`,
    )
  return {
    chainId,
    loadedState: state !== undefined,
    stateSource: saved?.source,
    placed: toPlace.map((row) => row.name),
    funded: !state,
  }
}

/**
 * On a fork, the live allocator signs with a key the simulator does not have: its `signer`
 * (storage slot 0 of our Allocator; checked by reading it back) is overwritten with the devnet's
 * allocator key.
 */
async function overrideAllocatorSigner(chain: DevnetChain, signer: Address): Promise<void> {
  const { Allocator } = await import('../../../contracts/generated/artifacts')
  const { addresses } = await import('../../../contracts/addresses')
  const read = () =>
    chain.publicClient.readContract({
      address: addresses.allocator,
      abi: Allocator.abi,
      functionName: 'signer',
    })
  if ((await read()).toLowerCase() === signer.toLowerCase()) return
  await chain.testClient.setStorageAt({
    address: addresses.allocator,
    index: `0x${'0'.repeat(64)}`,
    value: `0x${signer.slice(2).toLowerCase().padStart(64, '0')}`,
  })
  if ((await read()).toLowerCase() !== signer.toLowerCase())
    throw new DevnetError(`Could not override the allocator's signer on chain ${chain.chainId}.`)
}
