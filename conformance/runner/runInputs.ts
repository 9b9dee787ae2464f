import { addresses, tokensByChain } from '../../contracts/addresses'
import type { LoadedScenario } from '../scenario/loadScenarios'
import type { TargetCapabilities } from './types'

/** Contracts at the same address on every chain (facts §2, §3): a run that names none uses these. */
export const CANONICAL_CONTRACTS = {
  permit2: addresses.permit2,
  compact: addresses.compact,
  intentExecutor: addresses.intentExecutor,
  multicall3: addresses.multicall3,
} as const

/**
 * Fills what a run's inputs leave out with canonical addresses: the contracts of
 * {@link CANONICAL_CONTRACTS} on each of its chains (a `<name>` the manifest or `--chains` gives
 * for all chains wins), and the tokens of chains 1, 10, 8453 and 42161 at their real addresses
 * (where the devnet places them too). Returns the names it filled, e.g. `tokens.10.USDC`.
 *
 * @example
 * const filled = applyCanonicalDefaults(caps) // ['contracts.10.permit2', …, 'tokens.8453.USDC', …]
 */
export function applyCanonicalDefaults(caps: TargetCapabilities): string[] {
  const filled: string[] = []
  for (const { chainId } of caps.chains)
    for (const [name, address] of Object.entries(CANONICAL_CONTRACTS)) {
      const key = `${chainId}.${name}`
      if (caps.contracts[key] !== undefined) continue
      caps.contracts[key] = caps.contracts[name] ?? address
      if (caps.contracts[name] === undefined) filled.push(`contracts.${key}`)
    }
  for (const [chainId, tokens] of Object.entries(tokensByChain))
    for (const token of tokens) {
      const key = `${chainId}.${token.symbol}`
      if (caps.tokens[key] !== undefined) continue
      caps.tokens[key] = token.address
      filled.push(`tokens.${key}`)
    }
  return filled
}

/** Run variables a scenario's text names (`${tokens.10.USDC}`): the dotted ones and `quoteTtlSeconds`; captures have no dot. */
function runVariablesOf(scenario: LoadedScenario): Set<string> {
  const text = JSON.stringify([scenario.steps, scenario.cleanup])
  const names = new Set<string>()
  for (const match of text.matchAll(/\$\{([\w.-]+)\}/g)) {
    const name = match[1]!
    // fresh.* always resolve, webhook.* with the `webhooks` requirement, accounts.* by notApplicableReason.
    if (/^(fresh|webhook|accounts)\./.test(name)) continue
    if (name.includes('.') || name === 'quoteTtlSeconds') names.add(name)
  }
  return names
}

/**
 * Why a run cannot give a scenario an input it needs, with the fix, or undefined: every run
 * variable it names (tokens, contracts, chains, the quote lifetime) must resolve, and every chain
 * its chain steps act on must have an RPC URL. Decided before the target is contacted, so a gap
 * in the run's configuration is never reported as the target's failure.
 *
 * @example
 * missingInput(scenario, caps) // 'it needs ${tokens.10.DAI}: add "10.DAI": "0x…" under tokens in --chains'
 */
export function missingInput(scenario: LoadedScenario, caps: TargetCapabilities): string | undefined {
  for (const name of runVariablesOf(scenario)) {
    const [kind, ...rest] = name.split('.')
    const key = rest.join('.')
    if (kind === 'tokens' && caps.tokens[key] === undefined)
      return `it needs \${${name}}: add "${key}": "0x…" under tokens in --chains`
    if (kind === 'contracts' && caps.contracts[key] === undefined)
      return `it needs \${${name}}: add "${key}": "0x…" under contracts in --chains`
    if (kind === 'chains' && caps.chains[Number(rest[0])] === undefined)
      return `it needs \${${name}}: add a chain (chainId, rpcUrl) under chains in --chains (the run has ${caps.chains.length})`
    if (name === 'quoteTtlSeconds' && caps.quoteTtlSeconds === undefined)
      return 'it needs the quote lifetime (${quoteTtlSeconds}): the target advertises none (no GET /_devnet/manifest); give quoteTtlSeconds in --chains'
  }
  const known = new Set(caps.chains.map((c) => c.chainId))
  for (const step of [...scenario.steps, ...scenario.cleanup]) {
    if (!('chain' in step) || !('chainId' in step.chain)) continue
    const chainId = Number(step.chain.chainId)
    if (Number.isInteger(chainId) && !known.has(chainId))
      return `it acts on chain ${chainId}, and the run has no RPC URL for it: add { chainId: ${chainId}, rpcUrl: … } under chains in --chains`
  }
  return undefined
}
