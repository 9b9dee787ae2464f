import { createPublicClient, http } from 'viem'
import { describe, expect, it } from 'vitest'
import { startAnvil } from './anvil'

describe('startAnvil', () => {
  it('starts a real Anvil on a free port with the chain id asked for', async () => {
    const anvil = await startAnvil({ chainId: 8453 })
    try {
      const client = createPublicClient({ transport: http(anvil.rpcUrl) })
      expect(await client.getChainId()).toBe(8453)
      expect(anvil.alive).toBe(true)
    } finally {
      await anvil.stop()
    }
    expect(anvil.alive).toBe(false)
  })

  it('names the port when it is already in use', async () => {
    const first = await startAnvil({ chainId: 1 })
    try {
      await expect(startAnvil({ chainId: 10, port: first.port })).rejects.toThrow(
        `Port ${first.port} is already in use: cannot start Anvil for chain 10.`,
      )
    } finally {
      await first.stop()
    }
  })
})
