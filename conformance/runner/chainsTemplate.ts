import { CANONICAL_CONTRACTS } from './runInputs'

/**
 * The `--chains` file `intent-devnet conformance --chains-template` writes: every field a run can
 * use, each with a comment saying what reads it and what it defaults to. Its values are examples
 * (a local Anvil and its first well-known key); `ChainsFile` accepts it as it is.
 *
 * @example
 * await writeFile('chains.yaml', CHAINS_TEMPLATE)
 */
export const CHAINS_TEMPLATE = `# A --chains file for \`intent-devnet conformance --target URL --chains chains.yaml\`: what a
# target without GET /_devnet/manifest does not tell the runner. YAML or JSON.

# The chains the runner reads and sends transactions on (viem, over these RPC URLs): balances,
# receipts of the transactions the target reports, and its own setup (funding, approvals).
# A scenario acting on a chain not listed here is not applicable, and says which chain to add.
chains:
  - chainId: 10
    rpcUrl: http://127.0.0.1:8545
  - chainId: 8453
    rpcUrl: http://127.0.0.1:8546

# Private keys of accounts funded on those chains (native coin and the tokens below). The runner
# acts as them (\${accounts.N.address}) and funds fresh accounts from them. A scenario that uses
# account N is not applicable when fewer are given, and says so. Keys the target itself sends
# from (a solver's) do not belong here.
accounts:
  - "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"

# Contract addresses, as "<chainId>.<name>" (one chain) or "<name>" (every chain). Unless given,
# on every listed chain: ${Object.entries(CANONICAL_CONTRACTS)
  .map(([name, address]) => `${name} ${address}`)
  .join(',\n# ')} (canonical
# addresses, the same on every chain). Scenarios name them as \${contracts.<chainId>.<name>}.
contracts:
  "10.permit2": "${CANONICAL_CONTRACTS.permit2}"
  compact: "${CANONICAL_CONTRACTS.compact}"

# Token addresses, as "<chainId>.<SYMBOL>" (\${tokens.<chainId>.<SYMBOL>}). Unless given, the
# tokens of chains 1, 10, 8453 and 42161 are at their real addresses (USDC, WETH, USDT; USDT0
# on 42161), as the devnet places them. Other chains need theirs here.
tokens:
  "8453.USDC": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"

# The target's quote lifetime in seconds, when known (\${quoteTtlSeconds}); optional.
# quoteTtlSeconds: 3600
`
