import { type Address, decodeEventLog, encodeFunctionData, getAddress, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { addresses } from '../addresses'
import { DevnetERC20, NexusAccount } from '../generated/artifacts'
import {
  batchExecution,
  batchMode,
  entryPoint07,
  mode,
  ownerKey,
  recipient,
  singleExecution,
  singleMode,
  transferData,
  usdc,
  useNexusAccount,
} from './support/accountFixture'

// What the deployed account executes and for whom: executeFromExecutor, execute, module installs.
const fx = useNexusAccount({ deployed: true })

describe('Nexus-compatible ERC-7579 account at the SDK addresses', () => {
  it('runs a token transfer for the installed executor (executeFromExecutor, single and batch)', async () => {
    const before = await fx.usdcBalance(recipient)
    const single = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'executeFromExecutor',
      args: [singleMode, singleExecution(usdc, 0n, transferData(recipient, 1_000n))],
    })
    expect((await fx.sendAs(addresses.intentExecutor, fx.account, single)).status).toBe('success')
    expect(await fx.usdcBalance(recipient)).toBe(before + 1_000n)

    await fx.testClient.setBalance({ address: fx.account, value: parseEther('1') })
    const batch = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'executeFromExecutor',
      args: [
        batchMode,
        batchExecution([
          { target: usdc, value: 0n, callData: transferData(recipient, 2_000n) },
          { target: recipient, value: 5n, callData: '0x' },
        ]),
      ],
    })
    const ethBefore = await fx.publicClient.getBalance({ address: recipient })
    expect((await fx.sendAs(addresses.intentExecutor, fx.account, batch)).status).toBe('success')
    expect(await fx.usdcBalance(recipient)).toBe(before + 3_000n)
    expect(await fx.publicClient.getBalance({ address: recipient })).toBe(ethBefore + 5n)
  })

  it('reverts a failing call in default mode and reports it in try mode', async () => {
    const tooMuch = transferData(recipient, 10n ** 30n)
    await expect(
      fx.publicClient.simulateContract({
        address: fx.account,
        // The token's errors too, so viem can name the bubbled-up revert.
        abi: [...NexusAccount.abi, ...DevnetERC20.abi],
        functionName: 'executeFromExecutor',
        args: [singleMode, singleExecution(usdc, 0n, tooMuch)],
        account: addresses.intentExecutor,
      }),
    ).rejects.toThrow(/InsufficientBalance/)

    const before = await fx.usdcBalance(recipient)
    const tryBatch = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'executeFromExecutor',
      args: [
        mode('0x01', '0x01'),
        batchExecution([
          { target: usdc, value: 0n, callData: tooMuch },
          { target: usdc, value: 0n, callData: transferData(recipient, 7n) },
        ]),
      ],
    })
    const receipt = await fx.sendAs(addresses.intentExecutor, fx.account, tryBatch)
    expect(receipt.status).toBe('success')
    const failures = receipt.logs
      .filter((log) => log.address.toLowerCase() === fx.account.toLowerCase())
      .map((log) => decodeEventLog({ abi: NexusAccount.abi, ...log }))
      .filter((e) => e.eventName === 'TryExecuteUnsuccessful')
    expect(failures).toHaveLength(1)
    expect(failures[0]?.args).toMatchObject({ batchExecutionIndex: 0n })
    expect(await fx.usdcBalance(recipient)).toBe(before + 7n)
  })

  it('lets only installed executors call executeFromExecutor', async () => {
    await expect(
      fx.publicClient.simulateContract({
        address: fx.account,
        abi: NexusAccount.abi,
        functionName: 'executeFromExecutor',
        args: [singleMode, singleExecution(usdc, 0n, transferData(recipient, 1n))],
        account: recipient,
      }),
    ).rejects.toThrow(/ExecutorNotInstalled/)
  })

  it('lets the EntryPoint and the account itself call execute, and no one else', async () => {
    const before = await fx.usdcBalance(recipient)
    const viaEntryPoint = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'execute',
      args: [
        batchMode,
        batchExecution([{ target: usdc, value: 0n, callData: transferData(recipient, 11n) }]),
      ],
    })
    expect((await fx.sendAs(entryPoint07, fx.account, viaEntryPoint)).status).toBe('success')
    expect(await fx.usdcBalance(recipient)).toBe(before + 11n)

    // The executor asks the account to call its own execute: the self path.
    const selfCall = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'executeFromExecutor',
      args: [singleMode, singleExecution(fx.account, 0n, viaEntryPoint)],
    })
    expect((await fx.sendAs(addresses.intentExecutor, fx.account, selfCall)).status).toBe('success')
    expect(await fx.usdcBalance(recipient)).toBe(before + 22n)

    await expect(
      fx.publicClient.simulateContract({
        address: fx.account,
        abi: NexusAccount.abi,
        functionName: 'execute',
        args: [singleMode, singleExecution(usdc, 0n, transferData(recipient, 1n))],
        account: privateKeyToAccount(ownerKey).address,
      }),
    ).rejects.toThrow(/UnauthorizedCaller/)
  })

  it('installs and uninstalls an executor module through a self-call', async () => {
    // Any contract with an onInstall that does not revert will do: the USDC stand-in has none, so
    // use a fresh address holding STOP.
    const extra: Address = '0x0000000000000000000000000000000000000e0e'
    await fx.testClient.setCode({ address: extra, bytecode: '0x00' })
    const install = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'installModule',
      args: [2n, extra, '0x'],
    })
    await fx.sendAs(
      addresses.intentExecutor,
      fx.account,
      encodeFunctionData({
        abi: NexusAccount.abi,
        functionName: 'executeFromExecutor',
        args: [singleMode, singleExecution(fx.account, 0n, install)],
      }),
    )
    expect(await fx.sdkAccount.getExecutors(base)).toEqual([getAddress(extra), addresses.intentExecutor])

    const uninstall = encodeFunctionData({
      abi: NexusAccount.abi,
      functionName: 'uninstallModule',
      args: [2n, extra, '0x'],
    })
    await fx.sendAs(
      addresses.intentExecutor,
      fx.account,
      encodeFunctionData({
        abi: NexusAccount.abi,
        functionName: 'executeFromExecutor',
        args: [singleMode, singleExecution(fx.account, 0n, uninstall)],
      }),
    )
    expect(await fx.sdkAccount.getExecutors(base)).toEqual([addresses.intentExecutor])
  })
})
