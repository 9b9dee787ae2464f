import { isAddress, isHex, type TypedDataDefinition, type TypedDataDomain } from 'viem'
import type { TypedDataJson } from '../eip712/typedData'
import { InvalidTypedDataDomainError } from './errors'

/** viem's `TypedDataDefinition` of typed data whose types are known only at run time. */
export type TypedDataJsonDefinition = TypedDataDefinition<TypedDataJson['types'], string>

/**
 * Typed data in its JSON form (as the service hands it out and the SDK signs it) as viem's
 * `TypedDataDefinition`, for `hashTypedData` / `signTypedData`: the domain's fields are checked.
 *
 * @example
 * const hash = hashTypedData(toTypedDataDefinition(compactTypedData(intentOp)))
 */
export function toTypedDataDefinition(typedData: TypedDataJson): TypedDataJsonDefinition {
  return {
    domain: toDomain(typedData.domain),
    types: typedData.types,
    primaryType: typedData.primaryType,
    message: typedData.message,
  }
}

function toDomain({
  name,
  version,
  chainId,
  verifyingContract,
  salt,
}: TypedDataJson['domain']): TypedDataDomain {
  const domain: TypedDataDomain = {}
  if (name !== undefined) domain.name = typeof name === 'string' ? name : invalid('name', name)
  if (version !== undefined)
    domain.version = typeof version === 'string' ? version : invalid('version', version)
  if (chainId !== undefined)
    domain.chainId =
      typeof chainId === 'number' || typeof chainId === 'bigint'
        ? chainId
        : typeof chainId === 'string' && /^[0-9]+$/.test(chainId)
          ? BigInt(chainId)
          : invalid('chainId', chainId)
  if (verifyingContract !== undefined)
    domain.verifyingContract =
      typeof verifyingContract === 'string' && isAddress(verifyingContract, { strict: false })
        ? verifyingContract
        : invalid('verifyingContract', verifyingContract)
  if (salt !== undefined) domain.salt = typeof salt === 'string' && isHex(salt) ? salt : invalid('salt', salt)
  return domain
}

function invalid(field: string, value: unknown): never {
  throw new InvalidTypedDataDomainError(field, value)
}
