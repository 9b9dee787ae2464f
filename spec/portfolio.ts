import { z } from 'zod'
import { Address } from './common'

const Amount = z.string().regex(/^\d+$/, 'must be a non-negative integer as a decimal string')
const Balance = z.object({ locked: Amount, unlocked: Amount })

/** Query of `GET /accounts/{address}/portfolio` (facts §1): `chainIds=1,10` and `tokens=8453:USDC,…` narrow it. */
export const PortfolioQuery = z.object({
  chainIds: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'must be chain ids separated by commas')
    .optional(),
  tokens: z
    .string()
    .regex(/^\d+:[^,:]+(,\d+:[^,:]+)*$/, 'must be chainId:token pairs separated by commas')
    .optional(),
})
export type PortfolioQuery = z.infer<typeof PortfolioQuery>

/** One token of an account's portfolio, summed over chains (facts §1: GET /accounts/{address}/portfolio). */
export const PortfolioToken = z.object({
  tokenName: z.string(),
  tokenDecimals: z.number().int().nonnegative(),
  balance: Balance,
  tokenChainBalance: z.array(
    z.object({ chainId: z.number().int().positive(), tokenAddress: Address, balance: Balance }),
  ),
})
export type PortfolioToken = z.infer<typeof PortfolioToken>

/** The body of `GET /accounts/{address}/portfolio` (facts §1): what the public SDK's `getPortfolio` reads. */
export const Portfolio = z.object({ portfolio: z.array(PortfolioToken) })
export type Portfolio = z.infer<typeof Portfolio>
