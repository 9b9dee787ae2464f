import type { Address, Hex } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { addressOf as derivedAddress } from '../../lib/nativeSign'
import type { ScenarioContext } from './scenarioContext'

/** The variables of a scenario by name: `${name}` in a later step reads them (see interpolate). */
export type Variables = { [name: string]: unknown }

/** How many `${fresh.<i>.address}` accounts each scenario gets. */
const FRESH_ACCOUNTS = 4

/** Addresses of the target's funded keys, derived once per run rather than once per scenario. */
const addresses = new Map<Hex, Address>()
function addressOf(key: Hex): Address {
  let address = addresses.get(key)
  if (address === undefined) {
    address = derivedAddress(key)
    addresses.set(key, address)
  }
  return address
}

/** The variables a scenario starts with: the run's key and target, the target's chains, accounts, contracts and tokens, and fresh accounts. */
export function initialVariables(context: ScenarioContext): Variables {
  const { caps } = context
  const vars: Variables = {
    apiKey: context.apiKey,
    target: context.target,
    now: Math.floor(Date.now() / 1000),
  }
  if (caps.quoteTtlSeconds !== undefined) vars.quoteTtlSeconds = caps.quoteTtlSeconds
  caps.chains.forEach((chain, i) => {
    vars[`chains.${i}.chainId`] = chain.chainId
  })
  // Derived when a step first reads one (most scenarios read one funded account of ten).
  caps.accounts.forEach((key, i) => {
    const name = `accounts.${i}.address`
    Object.defineProperty(vars, name, {
      enumerable: true,
      configurable: true,
      get: () => addressOf(key),
      set: (value: unknown) => {
        Object.defineProperty(vars, name, { value, enumerable: true, configurable: true, writable: true })
      },
    })
  })
  for (const [name, address] of Object.entries(caps.contracts)) vars[`contracts.${name}`] = address
  for (const [name, address] of Object.entries(caps.tokens)) vars[`tokens.${name}`] = address
  // Accounts no other scenario uses (e.g. to register for deposits), new for every scenario;
  // made when a step first reads one (deriving an address is the costly part).
  for (let i = 0; i < FRESH_ACCOUNTS; i++) {
    let fresh: { privateKey: Hex; address: Address } | undefined
    const make = () => {
      if (!fresh) {
        const privateKey = generatePrivateKey()
        fresh = { privateKey, address: derivedAddress(privateKey) }
      }
      return fresh
    }
    // `word`: the address as one ABI word, without 0x (to splice into calldata).
    const fields = {
      privateKey: () => make().privateKey,
      address: () => make().address,
      word: () => make().address.slice(2).toLowerCase().padStart(64, '0'),
    }
    for (const [field, get] of Object.entries(fields)) {
      const name = `fresh.${i}.${field}`
      Object.defineProperty(vars, name, {
        enumerable: true,
        configurable: true,
        get,
        set: (value: unknown) => {
          Object.defineProperty(vars, name, { value, enumerable: true, configurable: true, writable: true })
        },
      })
    }
  }
  return vars
}
