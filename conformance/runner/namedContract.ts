import type { TargetCapabilities } from './types'

/**
 * The address the target names for a contract on a chain (`<chainId>.<name>` of the manifest or
 * `--chains` file, else the one `<name>`), or undefined when it names none.
 *
 * @example
 * namedContract(caps, 'compact', 8453) // caps.contracts['8453.compact'] ?? caps.contracts.compact
 */
export function namedContract(caps: TargetCapabilities, name: string, chainId: number): string | undefined {
  return caps.contracts[`${chainId}.${name}`] ?? caps.contracts[name]
}
