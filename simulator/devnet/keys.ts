import { createHmac, pbkdf2Sync } from 'node:crypto'
import { type Address, getAddress, type Hex, keccak256 } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { nativeSigningAccount, publicKeyOf } from '../../lib/nativeSign'
import { BaseError } from '../../spec/BaseError'

/**
 * The mnemonic the devnet derives its keys from unless told otherwise: Anvil's (and Hardhat's)
 * well-known test mnemonic, so the funded test accounts are the ones every Ethereum developer
 * recognises (`0xf39F…2266` first). PUBLIC: never use these keys on a real chain.
 */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

/** How many funded test accounts {@link deriveDevKeys} derives unless told otherwise. */
export const DEFAULT_TEST_ACCOUNT_COUNT = 10

/**
 * The derivation scheme (BIP-44, Ethereum coin type 60):
 * - test account `i`: `m/44'/60'/0'/0/i` (Anvil's own accounts, so index 0 is `0xf39F…2266`);
 * - the service's roles on their own BIP-44 account, `m/44'/60'/1'/0/k`, so they never collide
 *   with a test account however many are asked for.
 */
export const ROLE_ADDRESS_INDEX = {
  /** Signs quotes (the `serverSignature`). */
  server: 0,
  /** The allocator's signer: authorizes claims and transfers on the Compact. */
  allocator: 1,
  /** Sends fills and claims; fronts the tokens it delivers. */
  relayer: 2,
  /** Devnet only: places the contracts, is every token's minter, funds the accounts. */
  funder: 3,
} as const

export type DevKeyRole = keyof typeof ROLE_ADDRESS_INDEX

/** One derived key. */
export type DevKey = {
  /** `server`, `allocator`, `relayer`, `funder` or `test-<i>`. */
  label: string
  address: Address
  privateKey: Hex
  /** Its BIP-32 path from the mnemonic. */
  path: string
  /** A viem local account for it, ready to sign. */
  account: PrivateKeyAccount
}

/** Every key the devnet uses. */
export type DevKeys = Record<DevKeyRole, DevKey> & {
  mnemonic: string
  /** The funded test accounts, in index order. */
  accounts: readonly DevKey[]
}

/** Parameters of {@link deriveDevKeys}. */
export type DeriveDevKeysParameters = {
  /** BIP-39 mnemonic; default {@link DEV_MNEMONIC}. */
  mnemonic?: string | undefined
  /** How many test accounts; default {@link DEFAULT_TEST_ACCOUNT_COUNT}. */
  accountCount?: number | undefined
}

export class InvalidMnemonicError extends BaseError {
  override name = 'Signing.InvalidMnemonicError'
  constructor(words: number) {
    super(`A mnemonic has 12, 15, 18, 21 or 24 words; this one has ${words}.`)
  }
}

/**
 * Derives the devnet's keys from a mnemonic, deterministically (see {@link ROLE_ADDRESS_INDEX}).
 *
 * BIP-39 and BIP-32 run on native code (Node's crypto: PBKDF2 once, HMAC-SHA512 per step;
 * libsecp256k1 for each public key, lib/nativeSign.ts), so the whole set costs a few
 * milliseconds where viem's `mnemonicToAccount` (pure JS, one PBKDF2 per key) costs hundreds;
 * the tests check both agree.
 *
 * @example
 * const keys = deriveDevKeys()
 * keys.accounts[0].address // 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266
 * await keys.server.account.signMessage({ message: 'hi' })
 */
export function deriveDevKeys(parameters: DeriveDevKeysParameters = {}): DevKeys {
  const mnemonic = (parameters.mnemonic ?? DEV_MNEMONIC).trim().split(/\s+/).join(' ')
  const count = parameters.accountCount ?? DEFAULT_TEST_ACCOUNT_COUNT
  const cacheKey = `${mnemonic}\n${count}`
  const cached = cache.get(cacheKey)
  if (cached) return cached

  const words = mnemonic.split(' ').length
  if (![12, 15, 18, 21, 24].includes(words)) throw new InvalidMnemonicError(words)
  // BIP-39: seed = PBKDF2-HMAC-SHA512(NFKD(mnemonic), 'mnemonic' + passphrase, 2048, 64).
  const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512')
  const root = masterKey(seed)
  // Each parent (`m/44'/60'/a'/0`) is derived once; a key is then one child step from it.
  const parents = new Map<number, ExtendedKey>()
  const derive = (label: string, accountIndex: number, addressIndex: number): DevKey => {
    let parent = parents.get(accountIndex)
    if (!parent) {
      parent = [44 + HARDENED, 60 + HARDENED, accountIndex + HARDENED, 0].reduce(childKey, root)
      parents.set(accountIndex, parent)
    }
    const key = childKey(parent, addressIndex).key
    const privateKey = toHex(key)
    const address = getAddress(`0x${keccak256(publicKeyOf(key).subarray(1), 'hex').slice(-40)}`)
    let account: PrivateKeyAccount | undefined
    return {
      label,
      address,
      privateKey,
      path: `m/44'/60'/${accountIndex}'/0/${addressIndex}`,
      // Built on first use: a viem account costs a (slow, pure JS) public key computation.
      // Its sign({ hash }) is libsecp256k1's (nativeSign.ts): same bytes as viem's, ~10× faster.
      get account() {
        account ??= nativeSigningAccount(privateKey)
        return account
      },
    }
  }
  const keys: DevKeys = {
    mnemonic,
    server: derive('server', 1, ROLE_ADDRESS_INDEX.server),
    allocator: derive('allocator', 1, ROLE_ADDRESS_INDEX.allocator),
    relayer: derive('relayer', 1, ROLE_ADDRESS_INDEX.relayer),
    funder: derive('funder', 1, ROLE_ADDRESS_INDEX.funder),
    accounts: Array.from({ length: count }, (_, i) => derive(`test-${i}`, 0, i)),
  }
  cache.set(cacheKey, keys)
  return keys
}

const cache = new Map<string, DevKeys>()

function toHex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString('hex')}`
}

/** BIP-32, private derivation only: what {@link deriveDevKeys} needs. */
type ExtendedKey = { key: Buffer; chainCode: Buffer }
const HARDENED = 0x8000_0000
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

function masterKey(seed: Buffer): ExtendedKey {
  const I = createHmac('sha512', 'Bitcoin seed').update(seed).digest()
  return { key: I.subarray(0, 32), chainCode: I.subarray(32) }
}

function childKey(parent: ExtendedKey, index: number): ExtendedKey {
  const data = Buffer.alloc(37)
  if (index >= HARDENED) parent.key.copy(data, 1)
  else publicKeyOf(parent.key, true).copy(data, 0)
  data.writeUInt32BE(index, 33)
  const I = createHmac('sha512', parent.chainCode).update(data).digest()
  const key =
    (BigInt(`0x${I.subarray(0, 32).toString('hex')}`) + BigInt(`0x${parent.key.toString('hex')}`)) %
    CURVE_ORDER
  return { key: Buffer.from(key.toString(16).padStart(64, '0'), 'hex'), chainCode: I.subarray(32) }
}
