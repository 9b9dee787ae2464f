import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { ScenarioContext } from './scenarioContext'

/** The variables of a scenario by name: `${name}` in a later step reads them (see interpolate). */
export type Variables = { [name: string]: unknown }

/** How many `${fresh.<i>.address}` accounts each scenario gets. */
const FRESH_ACCOUNTS = 2

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
  caps.accounts.forEach((key, i) => {
    vars[`accounts.${i}.address`] = privateKeyToAccount(key).address
  })
  for (const [name, address] of Object.entries(caps.contracts)) vars[`contracts.${name}`] = address
  for (const [name, address] of Object.entries(caps.tokens)) vars[`tokens.${name}`] = address
  // Accounts no other scenario uses (e.g. to register for deposits), new for every scenario.
  for (let i = 0; i < FRESH_ACCOUNTS; i++) {
    const key = generatePrivateKey()
    vars[`fresh.${i}.privateKey`] = key
    vars[`fresh.${i}.address`] = privateKeyToAccount(key).address
  }
  return vars
}
