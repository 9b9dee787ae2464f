import {
  concat,
  decodeFunctionData,
  encodeAbiParameters,
  encodePacked,
  type Hex,
  keccak256,
  recoverAddress,
  size,
  slice,
  toHex,
} from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { recoverAuthorizationAddress } from 'viem/utils'
import { describe, expect, it } from 'vitest'
import { addresses } from '../contracts/addresses'
import { NexusAccount } from '../contracts/generated/artifacts'
import { nativeSigningAccount } from './nativeSign'
import { eip7702AccountOf } from './smartAccount'

/** NexusAccount.initializeAccount's digest, as contracts/src/account/NexusAccount.sol computes it. */
function initializeDigest(nexus: Hex, chainIds: bigint[], accountInit: Hex): Hex {
  const domainSeparator = keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'bytes32' }],
      [
        keccak256(toHex('EIP712Domain(string name,string version)')),
        keccak256(toHex('Nexus')),
        keccak256(toHex('1.2.0')),
      ],
    ),
  )
  const structHash = keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }],
      [
        keccak256(toHex('Initialize(address nexus,uint256[] chainIds,bytes initData)')),
        nexus,
        keccak256(encodePacked(['uint256[]'], [chainIds])),
        keccak256(accountInit),
      ],
    ),
  )
  return keccak256(concat(['0x1901', domainSeparator, structHash]))
}

describe('eip7702AccountOf', () => {
  it("gives the EOA's initializeAccount call on itself, with init data the contract accepts, and its authorization", async () => {
    const eoa = nativeSigningAccount(generatePrivateKey())
    const account = await eip7702AccountOf(eoa, 3)
    expect(account.address).toBe(eoa.address)
    expect(account.setupOps).toHaveLength(1)
    const [op] = account.setupOps
    expect(op?.to).toBe(eoa.address)
    const { functionName, args } = decodeFunctionData({ abi: NexusAccount.abi, data: op!.data })
    expect(functionName).toBe('initializeAccount')
    const initData = args[0] as Hex
    // signature (65) ‖ index ‖ length ‖ chainIds ‖ accountInit, read as the contract reads it.
    expect(BigInt(slice(initData, 65, 97))).toBe(0n)
    expect(BigInt(slice(initData, 97, 129))).toBe(1n)
    expect(BigInt(slice(initData, 129, 161))).toBe(0n)
    const accountInit = slice(initData, 161, size(initData))
    const digest = initializeDigest(addresses.nexusImplementation, [0n], accountInit)
    expect(await recoverAddress({ hash: digest, signature: slice(initData, 0, 65) })).toBe(eoa.address)

    const [authorization] = account.signedAuthorizations
    expect(authorization).toMatchObject({ chainId: 0, address: addresses.nexusImplementation, nonce: '3' })
    const { chainId, address, nonce, r, s, yParity } = authorization!
    expect(
      await recoverAuthorizationAddress({
        authorization: { chainId, address, nonce: Number(nonce), r, s, yParity },
      }),
    ).toBe(eoa.address)
  })
})
