import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  type PublicClient,
  parseEther,
} from 'viem'
import { type TokenInfo, tokensByChain } from '../../../contracts/addresses'
import { DevnetERC20, WETH } from '../../../contracts/generated/artifacts'
import { type AnvilInstance, startAnvil } from '../../devnet/anvil'
import { createChainSender } from '../../devnet/chainSender'
import { type DevKey, deriveDevKeys } from '../../devnet/keys'
import type { DepositChain } from '../types'

/**
 * Test chains for the deposit processor, until `startDevnet()` provides them: one real Anvil per
 * chain id, our DevnetERC20 placed at each token's real address (WETH code at WETH's), the
 * relayer funded with ether and 10^15 units of every token, and one sender per chain for the
 * relayer (as the composition root shares it). Tests only.
 */
export async function startTestChains(chainIds: readonly number[]) {
  const keys = deriveDevKeys()
  const anvils: AnvilInstance[] = []
  const chains: DepositChain[] = []
  const publicClients = new Map<number, PublicClient>()
  try {
    for (const chainId of chainIds) {
      const anvil = await startAnvil({ chainId })
      anvils.push(anvil)
      const chain = defineChain({
        id: chainId,
        name: `devnet-${chainId}`,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [anvil.rpcUrl] } },
      })
      const transport = http(anvil.rpcUrl)
      const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient
      const test = createTestClient({ chain, transport, mode: 'anvil' })
      const funder = createWalletClient({ chain, transport, account: keys.funder.account })
      await test.setBalance({ address: keys.funder.address, value: parseEther('1000000') })
      await test.setBalance({ address: keys.relayer.address, value: parseEther('1000000') })
      const tokens = tokensByChain[chainId] ?? []
      for (const token of tokens) {
        if (token.symbol === 'WETH') {
          await test.setCode({ address: token.address, bytecode: WETH.deployedBytecode })
          continue
        }
        await test.setCode({ address: token.address, bytecode: DevnetERC20.deployedBytecode })
        const init = await funder.writeContract({
          address: token.address,
          abi: DevnetERC20.abi,
          functionName: 'initialize',
          args: [token.name, token.symbol, token.decimals, keys.funder.address],
        })
        await publicClient.waitForTransactionReceipt({ hash: init })
        const mint = await funder.writeContract({
          address: token.address,
          abi: DevnetERC20.abi,
          functionName: 'mint',
          args: [keys.relayer.address, 10n ** 15n],
        })
        await publicClient.waitForTransactionReceipt({ hash: mint })
      }
      publicClients.set(chainId, publicClient)
      const relayer = createWalletClient({ chain, transport, account: keys.relayer.account })
      const sender = createChainSender({ chain: { chainId, publicClient, relayerClient: relayer } })
      chains.push({ chainId, publicClient, relayer, tokens, send: (tx, options) => sender.send(tx, options) })
    }
  } catch (error) {
    await Promise.all(anvils.map((anvil) => anvil.stop()))
    throw error
  }

  const client = (chainId: number) => publicClients.get(chainId)!
  const chainOf = (chainId: number) => chains.find((c) => c.chainId === chainId)!.relayer.chain!
  const wallet = (chainId: number, key: DevKey) =>
    createWalletClient({
      chain: chainOf(chainId),
      transport: http(client(chainId).transport.url),
      account: key.account,
    })

  return {
    chains,
    keys,
    anvils,
    /** The token of `symbol` on `chainId`. */
    token(chainId: number, symbol: string): TokenInfo {
      const token = (tokensByChain[chainId] ?? []).find((t) => t.symbol === symbol)
      if (!token) throw new Error(`no ${symbol} on ${chainId}`)
      return token
    },
    /** Mints `amount` of an ERC-20 to `to` (a Transfer from the zero address). */
    async mint(chainId: number, token: Address, to: Address, amount: bigint) {
      const hash = await wallet(chainId, keys.funder).writeContract({
        address: token,
        abi: DevnetERC20.abi,
        functionName: 'mint',
        args: [to, amount],
      })
      return client(chainId).waitForTransactionReceipt({ hash })
    },
    /** `from` transfers `amount` of an ERC-20 to `to`; resolves with the mined receipt. */
    async transfer(chainId: number, from: DevKey, token: Address, to: Address, amount: bigint) {
      const hash = await wallet(chainId, from).writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to, amount],
      })
      return client(chainId).waitForTransactionReceipt({ hash })
    },
    /** `from` sends `value` wei to `to`. */
    async sendEther(chainId: number, from: DevKey, to: Address, value: bigint) {
      const hash = await wallet(chainId, from).sendTransaction({ to, value })
      return client(chainId).waitForTransactionReceipt({ hash })
    },
    balanceOf(chainId: number, token: Address, account: Address): Promise<bigint> {
      return client(chainId).readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account],
      })
    },
    async stop() {
      await Promise.all(anvils.map((anvil) => anvil.stop()))
    },
  }
}

export type TestChains = Awaited<ReturnType<typeof startTestChains>>
