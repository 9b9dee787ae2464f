import type { TokenInfo } from '../../contracts/addresses'
import { UnknownChainError, UnknownTokenError } from './errors'
import type { AccessList } from './types'

/** Parameters of {@link checkAccessList}. */
export type CheckAccessListParameters = {
  access: AccessList | undefined
  /** The chains the devnet runs. */
  chainIds: readonly number[]
  /** Tokens per chain (native ETH included). */
  tokens: Readonly<Record<number, readonly TokenInfo[]>>
}

/** Throws when `accountAccessList` names a chain the devnet does not run or a token it does not know there. */
export function checkAccessList(parameters: CheckAccessListParameters): void {
  const { access, chainIds: running, tokens } = parameters
  if (!access) return
  const lists = [access, access.exclude ?? {}]
  const chainIds = lists.flatMap((l) => [
    ...(l.chainIds ?? []).map(Number),
    ...Object.keys(l.chainTokens ?? {}).map(Number),
  ])
  const unknownChains = [...new Set(chainIds.filter((c) => !running.includes(c)))]
  if (unknownChains.length)
    throw new UnknownChainError(
      `accountAccessList names chains this devnet does not run: ${unknownChains.join(', ')} (chains: ${running.join(', ')}).`,
      { unknownChains },
    )
  const known = (name: string, on: readonly number[]) =>
    on.some((c) =>
      (tokens[c] ?? []).some(
        (t) =>
          t.address.toLowerCase() === name.toLowerCase() || t.symbol.toUpperCase() === name.toUpperCase(),
      ),
    )
  const unknownTokens = lists.flatMap((l) => [
    ...(l.tokens ?? []).filter((t) => !known(t, running)),
    ...Object.entries(l.chainTokens ?? {}).flatMap(([c, names]) =>
      names.filter((t) => !known(t, [Number(c)])).map((t) => `${t} (chain ${c})`),
    ),
  ])
  if (unknownTokens.length)
    throw new UnknownTokenError(`accountAccessList names unknown tokens: ${unknownTokens.join(', ')}.`, {
      unknownTokens,
    })
}
