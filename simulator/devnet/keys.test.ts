import { mnemonicToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { DEV_MNEMONIC, deriveDevKeys } from './keys'

describe('deriveDevKeys', () => {
  it("derives Anvil's well-known accounts as the test accounts", () => {
    const keys = deriveDevKeys()
    expect(keys.accounts).toHaveLength(10)
    expect(keys.accounts[0]?.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(keys.accounts[0]?.privateKey).toBe(
      '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    )
    expect(keys.accounts[9]?.address).toBe('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720')
  })

  it('matches viem mnemonicToAccount on every role path, and the roles are distinct', () => {
    const keys = deriveDevKeys()
    const roles = [keys.server, keys.allocator, keys.relayer, keys.funder]
    roles.forEach((key, i) => {
      expect(key.path).toBe(`m/44'/60'/1'/0/${i}`)
      expect(key.address).toBe(mnemonicToAccount(DEV_MNEMONIC, { accountIndex: 1, addressIndex: i }).address)
    })
    expect(keys.relayer.account.address).toBe(keys.relayer.address)
    const all = new Set([...roles, ...keys.accounts].map((key) => key.address))
    expect(all.size).toBe(14)
  })

  it('is deterministic per mnemonic and count', () => {
    const other = 'legal winner thank year wave sausage worth useful legal winner thank yellow'
    const a = deriveDevKeys({ mnemonic: other, accountCount: 3 })
    expect(a.accounts).toHaveLength(3)
    expect(a.accounts[0]?.address).toBe(mnemonicToAccount(other).address)
    expect(a.server.address).not.toBe(deriveDevKeys().server.address)
  })

  it('refuses a mnemonic with a wrong word count', () => {
    expect(() => deriveDevKeys({ mnemonic: 'one two three' })).toThrowErrorMatchingInlineSnapshot(
      `[Signing.InvalidMnemonicError: A mnemonic has 12, 15, 18, 21 or 24 words; this one has 3.]`,
    )
  })
})
