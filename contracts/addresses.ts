import type { Address } from 'viem'

/**
 * Where every contract sits on every devnet chain. Canonical addresses (The Compact, Permit2,
 * IntentExecutor, Nexus, Multicall3) are the ones the public SDK and integrators use; the others
 * are this project's own settlement design and are the same on every chain.
 */
export const addresses = {
  /** The Compact v1 (our Compact-compatible resource lock). */
  compact: '0x00000000000000171ede64904551eeDF3C6C9788',
  /** The older Compact address the SDK 1.x uses in its MultichainCompact signing domain. */
  compactLegacy: '0x73d2Dc0c21fca4EC1601895d50Df7f5624f07D3F',
  permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
  multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
  intentExecutor: '0x00000000005aD9ce1f5035FD62CA96CEf16AdAAF',
  intentExecutorDev: '0xbF9b5b917a83f8adaC17B0752846D41D8D7b7E17',
  nexusFactory: '0x0000000000679A258c64d2F20F310e12B64b7375',
  nexusImplementation: '0x000000000032dDC454C3BDcba80484Ad5A798705',
  nexusBootstrap: '0x00000000006eFb61D8c9546FF1B500de3f244EA7',
  ownableValidator: '0x000000000013fdB5234E4E3162a810F54d9f7E98',
  /** Our allocator (its signer is the simulator's allocator key). Many leading zero nibbles give a high compact flag, so lock ids never have a zero top byte. */
  allocator: '0x00000000000000000000000000000000a110cA70',
  /** Our origin-chain arbiter: claims the sponsor's funds for a fill the relayer attests. */
  arbiter: '0x00000000000000000000000000000000a4b17E40',
  /** Our destination-chain filler/settler: delivers tokenOut and runs destination ops. */
  filler: '0x00000000000000000000000000000000F111E400',
  /** Our Compact emissary (IntentEmissary): verifies a sponsor's claim signature through the validator its config names (docs/emissary.md). */
  emissary: '0x00000000000000000000000000000000E1155A27',
} as const satisfies Record<string, Address>

/** A token as the devnet places it: the chain's real address, symbol and decimals. */
export type TokenInfo = { symbol: string; address: Address; decimals: number; name: string }

/** The tokens of each chain the devnet knows, at their real addresses. */
export const tokensByChain: Record<number, readonly TokenInfo[]> = {
  1: [
    { symbol: 'USDC', name: 'USD Coin', address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 },
    {
      symbol: 'WETH',
      name: 'Wrapped Ether',
      address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
      decimals: 18,
    },
    {
      symbol: 'USDT',
      name: 'Tether USD',
      address: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      decimals: 6,
    },
  ],
  10: [
    { symbol: 'USDC', name: 'USD Coin', address: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', decimals: 6 },
    {
      symbol: 'WETH',
      name: 'Wrapped Ether',
      address: '0x4200000000000000000000000000000000000006',
      decimals: 18,
    },
    {
      symbol: 'USDT',
      name: 'Tether USD',
      address: '0x94b008aA00579c1307B0EF2c499aD98a8ce58e58',
      decimals: 6,
    },
  ],
  8453: [
    { symbol: 'USDC', name: 'USD Coin', address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6 },
    {
      symbol: 'WETH',
      name: 'Wrapped Ether',
      address: '0x4200000000000000000000000000000000000006',
      decimals: 18,
    },
  ],
  42161: [
    { symbol: 'USDC', name: 'USD Coin', address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', decimals: 6 },
    {
      symbol: 'WETH',
      name: 'Wrapped Ether',
      address: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
      decimals: 18,
    },
    { symbol: 'USDT0', name: 'USDT0', address: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', decimals: 6 },
  ],
}
