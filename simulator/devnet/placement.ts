import { type Abi, type Address, encodeFunctionData, type Hex } from 'viem'
import { addresses, type TokenInfo, tokensByChain } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import type { DevKeys } from './keys'
import type { DevnetCall } from './sendCalls'

/** A compiled contract as the generated module holds it. */
export type Artifact = { abi: Abi; bytecode: Hex; deployedBytecode: Hex }

/** Looks up a contract of `contracts/generated/artifacts.ts` by name. */
export function getArtifact(name: string): Artifact | undefined {
  const all: Readonly<Record<string, Artifact>> = artifacts
  return Object.hasOwn(all, name) ? all[name] : undefined
}

/** What a placement's `init` gets to build its calls. */
export type PlacementContext = { chainId: number; keys: DevKeys; tokens: readonly TokenInfo[] }

/**
 * One contract to place on a chain: its code goes to `address` with `anvil_setCode` (placed code
 * runs no constructor), then `init` gives the one-time calls that set its state.
 */
export type Placement = {
  /** The manifest's name for it (`compact`, `permit2`, `USDC`, ...). */
  name: string
  address: Address
  /** The contract's name in the generated artifacts module. */
  artifact: string
  /** Listed among the manifest's contracts (tokens are listed as tokens instead). */
  kind: 'contract' | 'token'
  init?: ((context: PlacementContext) => DevnetCall[]) | undefined
}

const initCall = (label: string, to: Address, data: Hex): DevnetCall => ({ label, to, data })

/** The artifact that plays a token: WETH wraps ether, every other token is a mintable ERC-20. */
export function tokenArtifact(token: TokenInfo): 'WETH' | 'DevnetERC20' {
  return token.symbol === 'WETH' ? 'WETH' : 'DevnetERC20'
}

/**
 * The placement table of one chain: every contract the devnet places, where, and how it is
 * initialized. The same on every chain but for the tokens (each chain's real token addresses).
 * Order matters: an init may rely on contracts placed (and initialized) before it.
 */
export function placementTable(chainId: number): Placement[] {
  const tokens = tokensByChain[chainId] ?? []
  const tokenRows = tokens.map(
    (token): Placement => ({
      name: token.symbol,
      address: token.address,
      artifact: tokenArtifact(token),
      kind: 'token',
      // WETH has constant metadata and no minter; the devnet ERC-20 learns its own here.
      init:
        tokenArtifact(token) === 'DevnetERC20'
          ? ({ keys }) => [
              initCall(
                `initialize ${token.symbol}`,
                token.address,
                encodeFunctionData({
                  abi: artifacts.DevnetERC20.abi,
                  functionName: 'initialize',
                  args: [token.name, token.symbol, token.decimals, keys.funder.address],
                }),
              ),
            ]
          : undefined,
    }),
  )
  return [
    ...tokenRows,
    { name: 'compact', address: addresses.compact, artifact: 'TheCompact', kind: 'contract' },
    { name: 'permit2', address: addresses.permit2, artifact: 'Permit2', kind: 'contract' },
    { name: 'multicall3', address: addresses.multicall3, artifact: 'Multicall3', kind: 'contract' },
    {
      name: 'intentExecutor',
      address: addresses.intentExecutor,
      artifact: 'IntentExecutor',
      kind: 'contract',
    },
    {
      name: 'intentExecutorDev',
      address: addresses.intentExecutorDev,
      artifact: 'IntentExecutor',
      kind: 'contract',
    },
    {
      name: 'nexusFactory',
      address: addresses.nexusFactory,
      artifact: 'NexusAccountFactory',
      kind: 'contract',
    },
    {
      name: 'nexusImplementation',
      address: addresses.nexusImplementation,
      artifact: 'NexusAccount',
      kind: 'contract',
    },
    {
      name: 'nexusBootstrap',
      address: addresses.nexusBootstrap,
      artifact: 'NexusBootstrap',
      kind: 'contract',
    },
    {
      name: 'ownableValidator',
      address: addresses.ownableValidator,
      artifact: 'OwnableValidator',
      kind: 'contract',
    },
    {
      name: 'allocator',
      address: addresses.allocator,
      artifact: 'Allocator',
      kind: 'contract',
      // The Compact accepts the registration from anyone because the allocator has code.
      init: ({ keys }) => [
        initCall(
          'initialize allocator',
          addresses.allocator,
          encodeFunctionData({
            abi: artifacts.Allocator.abi,
            functionName: 'initialize',
            args: [keys.allocator.address],
          }),
        ),
        initCall(
          'register the allocator on the Compact',
          addresses.compact,
          encodeFunctionData({
            abi: artifacts.TheCompact.abi,
            functionName: '__registerAllocator',
            args: [addresses.allocator, '0x'],
          }),
        ),
      ],
    },
    {
      name: 'arbiter',
      address: addresses.arbiter,
      artifact: 'IntentArbiter',
      kind: 'contract',
      init: ({ keys }) => [
        initCall(
          'initialize arbiter',
          addresses.arbiter,
          encodeFunctionData({
            abi: artifacts.IntentArbiter.abi,
            functionName: 'initialize',
            args: [keys.relayer.address],
          }),
        ),
      ],
    },
    { name: 'filler', address: addresses.filler, artifact: 'IntentFiller', kind: 'contract' },
    // Stateless until an account enables a config; reads the Compact's lock details at call time.
    { name: 'emissary', address: addresses.emissary, artifact: 'IntentEmissary', kind: 'contract' },
  ]
}

/** True when `code` is what placing `artifact` would put there. */
export function isPlacedCode(code: Hex | undefined, artifact: Artifact): boolean {
  return code !== undefined && code.toLowerCase() === artifact.deployedBytecode.toLowerCase()
}
