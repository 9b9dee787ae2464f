import { expect, inject, it } from 'vitest'
import { workerDevnet } from '../../integrations/vitest'
import { sharedDevnet } from './sharedDevnet'

// In the 'shared-devnet' project (vitest.config.ts): the global setup's perWorker devnets.
it('starts one devnet per worker, each its own chains and service; a file gets its worker’s', async () => {
  const devnets = inject('intentDevnets') ?? []
  expect(devnets).toHaveLength(2) // maxWorkers 2 in vitest.config.ts
  expect(new Set(devnets.map((devnet) => devnet.service.baseUrl)).size).toBe(devnets.length)
  expect(new Set(devnets.flatMap((devnet) => devnet.chains.map((chain) => chain.rpcUrl))).size).toBe(
    devnets.length * 3,
  )
  expect(workerDevnet()).toEqual(devnets[Number(process.env.VITEST_POOL_ID) - 1])
  expect(inject('intentDevnet')).toEqual(devnets[0])

  const { devnet, baseUrl } = sharedDevnet()
  expect(baseUrl).toBe(workerDevnet().service.baseUrl)
  expect(devnet.chains.map((chain) => chain.chainId)).toEqual([10, 8453, 42161])
  expect(await devnet.chain(10).publicClient.getChainId()).toBe(10)
})
