/**
 * Shared helpers for contract tests: a real Anvil, viem clients, and code placement with
 * `anvil_setCode` (how the devnet places every contract).
 *
 * @example
 * const chain = await startTestChain()
 * await placeContract(chain.client, addresses.compact, TheCompact)
 * // ... chain.wallets[0].writeContract(...)
 * await chain.stop()
 */
import {
  type Abi,
  type Account,
  type Address,
  type Chain,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hash,
  type Hex,
  http,
  type PublicActions,
  publicActions,
  type TestClient,
  type Transport,
  type WalletActions,
  type WalletClient,
  walletActions,
} from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { type AnvilInstance, startAnvil } from '../../simulator/devnet/anvil'
import { addresses } from '../addresses'
import { Allocator, DevnetERC20, TheCompact } from '../generated/artifacts'

/** Anvil's default mnemonic accounts (`test test ... junk`), index 0..9: public test keys. */
export const anvilPrivateKeys = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
] as const satisfies readonly Hex[]

/** The accounts of {@link anvilPrivateKeys}, funded with 10 000 ETH by Anvil. */
export const anvilAccounts: readonly PrivateKeyAccount[] = anvilPrivateKeys.map((key) =>
  privateKeyToAccount(key),
)

/** A wallet client bound to one account, with public actions. */
export type TestWallet = WalletClient<Transport, Chain, Account> & PublicActions<Transport, Chain>

/** A test client (Anvil cheats) with public and wallet actions. */
export type AnvilClient = TestClient<'anvil', Transport, Chain> &
  PublicActions<Transport, Chain> &
  WalletActions<Chain>

/** A running test chain: its Anvil, clients, and one wallet per default account. */
export type TestChain = {
  anvil: AnvilInstance
  chain: Chain
  client: AnvilClient
  wallets: TestWallet[]
  stop: () => Promise<void>
}

/** Parameters of {@link startTestChain}. */
export type StartTestChainParameters = { chainId?: number | undefined }

/**
 * Starts an Anvil (port 0, Prague) and builds viem clients for it.
 *
 * @param parameters.chainId defaults to 31337; use a real id (1, 10, ...) when a test needs it.
 * @returns the chain, a test client with public and wallet actions, and ten funded wallets.
 */
export async function startTestChain(parameters: StartTestChainParameters = {}): Promise<TestChain> {
  const chainId = parameters.chainId ?? 31337
  const anvil = await startAnvil({ chainId })
  const chain = defineChain({
    id: chainId,
    name: `anvil-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  })
  const transport = http(anvil.rpcUrl)
  const client = createTestClient({ mode: 'anvil', chain, transport })
    .extend(publicActions)
    .extend(walletActions) as AnvilClient
  const wallets = anvilAccounts.map(
    (account) => createWalletClient({ account, chain, transport }).extend(publicActions) as TestWallet,
  )
  return { anvil, chain, client, wallets, stop: () => anvil.stop() }
}

/** An artifact from contracts/generated/artifacts.ts. */
export type Artifact = { abi: Abi; deployedBytecode: Hex }

/**
 * Places an artifact's runtime bytecode at `address` with `anvil_setCode` (no constructor runs).
 *
 * @example
 * await placeContract(chain.client, addresses.permit2, Permit2)
 */
export async function placeContract(
  client: AnvilClient,
  address: Address,
  artifact: Artifact,
): Promise<void> {
  await client.setCode({ address, bytecode: artifact.deployedBytecode })
}

/** Sends a transaction and waits for its receipt; throws if it reverted. */
export async function send(wallet: TestWallet, hash: Promise<Hash>): Promise<void> {
  const receipt = await wallet.waitForTransactionReceipt({ hash: await hash })
  if (receipt.status !== 'success') throw new Error(`transaction ${receipt.transactionHash} reverted`)
}

/**
 * Places a DevnetERC20 at `address` and initializes it, with `minter` allowed to mint.
 *
 * @returns the token's address.
 */
export async function placeToken(
  chain: TestChain,
  address: Address,
  token: { name: string; symbol: string; decimals: number },
  minter: TestWallet = chain.wallets[0]!,
): Promise<Address> {
  await placeContract(chain.client, address, DevnetERC20)
  await send(
    minter,
    minter.writeContract({
      address,
      abi: DevnetERC20.abi,
      functionName: 'initialize',
      args: [token.name, token.symbol, token.decimals, minter.account.address],
    }),
  )
  return address
}

/**
 * Mints `amount` of a DevnetERC20 to `owner` (by `minter`, as placeToken allowed it), then lets
 * `spender` take `allowance` of it (default: all of `amount`).
 */
export async function mintAndApprove(parameters: {
  token: Address
  minter: TestWallet
  owner: TestWallet
  amount: bigint
  spender: Address
  allowance?: bigint | undefined
}): Promise<void> {
  const { token, minter, owner, amount, spender } = parameters
  const erc20 = { address: token, abi: DevnetERC20.abi } as const
  await send(
    minter,
    minter.writeContract({ ...erc20, functionName: 'mint', args: [owner.account.address, amount] }),
  )
  await send(
    owner,
    owner.writeContract({
      ...erc20,
      functionName: 'approve',
      args: [spender, parameters.allowance ?? amount],
    }),
  )
}

/**
 * Places TheCompact and the Allocator at their canonical addresses, initializes the allocator with
 * `allocatorSigner` and registers it.
 *
 * @returns the allocator's lock tag for a scope and reset period (see {@link lockTagOf}).
 */
export async function placeCompact(
  chain: TestChain,
  allocatorSigner: Address,
  from: TestWallet = chain.wallets[0]!,
): Promise<{ allocatorId: bigint }> {
  await placeContract(chain.client, addresses.compact, TheCompact)
  await placeContract(chain.client, addresses.allocator, Allocator)
  await send(
    from,
    from.writeContract({
      address: addresses.allocator,
      abi: Allocator.abi,
      functionName: 'initialize',
      args: [allocatorSigner],
    }),
  )
  await send(
    from,
    from.writeContract({
      address: addresses.compact,
      abi: TheCompact.abi,
      functionName: '__registerAllocator',
      args: [addresses.allocator, '0x'],
    }),
  )
  const allocatorId = await chain.client.readContract({
    address: addresses.compact,
    abi: TheCompact.abi,
    functionName: 'toAllocatorId',
    args: [addresses.allocator],
  })
  return { allocatorId }
}

/**
 * The Compact v1 lock tag: scope << 95 | resetPeriod << 92 | allocatorId (as a bytes12).
 *
 * @param scope 0 Multichain, 1 ChainSpecific.
 * @param resetPeriod 0..7 (1 s, 15 s, 1 min, 10 min, 1 h 5 min, 1 day, 7 days 1 h, 30 days).
 */
export function lockTagOf(allocatorId: bigint, scope: 0 | 1, resetPeriod: number): Hex {
  const tag = (BigInt(scope) << 95n) | (BigInt(resetPeriod) << 92n) | allocatorId
  return `0x${tag.toString(16).padStart(24, '0')}`
}

/** The lock id of a lock tag and token: lockTag ‖ token. */
export function lockIdOf(lockTag: Hex, token: Address): bigint {
  return (BigInt(lockTag) << 160n) | BigInt(token)
}

/** A claimant: lockTag << 160 | recipient (lockTag 0x0 withdraws the underlying token). */
export function claimantOf(lockTag: Hex, recipient: Address): bigint {
  return (BigInt(lockTag) << 160n) | BigInt(recipient)
}
