import { type Address, encodeFunctionData, getAddress, type Hex, keccak256, parseUnits, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, expect } from 'vitest'
import { addresses } from '../../contracts/addresses'
import { ExecutorTestCounter } from '../../contracts/generated/artifacts'
import { isolateDevnet } from '../../integrations/vitest'
import { createE2eClient, minedTransactionProblem } from '../../simulator/settlement/testing/e2eClient'
import { sharedDevnet } from '../support/sharedDevnet'

/** `n` USDC in raw units (6 decimals). */
export const usdc = (n: number) => parseUnits(String(n), 6)
/** The destination chain of these tests. */
export const DEST = 8453
/** Where the small counter contract (ExecutorTestCounter) sits on the destination. */
const COUNTER = getAddress('0x00000000000000000000000000000000c0ffee01')

/**
 * End to end against the composed simulator (startSimulator: devnet + quoting + settlement +
 * withdrawals + deposits + HTTP) of the shared-devnet project, exactly as an integrator runs it.
 * Registers the calling file's isolation (a snapshot for the file, with the counter contract
 * placed on the destination, and one for each test) and returns the devnet (`sim`), an HTTP
 * client of it and the helpers the files share.
 */
export function useSimulatorE2e() {
  const sim = sharedDevnet()
  const http = createE2eClient(sim)

  isolateDevnet({ scope: 'file' })
  beforeAll(async () => {
    // A small contract on the destination whose state destination executions change.
    await sim.devnet
      .chain(DEST)
      .testClient.setCode({ address: COUNTER, bytecode: ExecutorTestCounter.deployedBytecode })
  }, 180_000)

  isolateDevnet()

  const owner = (label: string) => privateKeyToAccount(keccak256(toHex(`simulator.e2e ${label}`)))
  const funder = (i: number) => sim.devnet.keys.accounts[i]!.account
  const counts = (account: Address) =>
    sim.devnet.chain(DEST).publicClient.readContract({
      address: COUNTER,
      abi: ExecutorTestCounter.abi,
      functionName: 'counts',
      args: [account],
    })
  const hasCode = async (chainId: number, address: Address) => {
    const code = await sim.devnet.chain(chainId).publicClient.getCode({ address })
    return !!code && code !== '0x'
  }
  const bump = (by: bigint) => ({
    to: COUNTER,
    value: '0',
    data: encodeFunctionData({ abi: ExecutorTestCounter.abi, functionName: 'bump', args: [by] }),
  })

  /** Every hash in an alps status body is a mined transaction to the filler / the arbiter on the right chain. */
  async function expectAlpsHashes(status: {
    destinationChainId: number
    fillTransactionHash: Hex
    claims: { chainId: number; claimTransactionHash: Hex; status: string }[]
  }) {
    expect(
      await minedTransactionProblem(
        sim.devnet,
        status.destinationChainId,
        status.fillTransactionHash,
        addresses.filler,
      ),
    ).toBeUndefined()
    for (const claim of status.claims) {
      expect(claim.status).toBe('COMPLETED')
      expect(
        await minedTransactionProblem(
          sim.devnet,
          claim.chainId,
          claim.claimTransactionHash,
          addresses.arbiter,
        ),
      ).toBeUndefined()
    }
  }

  return { sim, http, owner, funder, counts, hasCode, bump, expectAlpsHashes }
}
