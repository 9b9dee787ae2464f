import { type Abi, type Address, createWalletClient, erc20Abi, type Hex, isAddress, parseAbi } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { addresses } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { eip7702AccountOf, smartAccountOf } from '../../lib/smartAccount'
import type { ChainStep } from '../scenario/schema'
import { ChainActionError, clientsFor, rpcUrlOf, signerAccount } from './chainClients'
import { namedContract } from './namedContract'
import type { TargetCapabilities } from './types'

/** The Compact v1 deposit functions the runner calls (facts §3). */
export const compactDepositAbi = parseAbi([
  'function depositNative(bytes12 lockTag, address recipient) payable returns (uint256 id)',
  'function depositERC20(address token, bytes12 lockTag, uint256 amount, address recipient) returns (uint256 id)',
])

/**
 * How often a transaction not yet mined is looked up again. viem's default (4 s for a chain
 * without a block time) made a step wait that long whenever the node had not mined the
 * transaction by the first look, and its last pause outlives the wait (keeping the CLI from
 * exiting for as long).
 */
const RECEIPT_POLL_MS = 50

/** What a chain step produced: a transaction receipt's essentials, or a balance. */
export type ChainActionResult = {
  hash?: Hex | undefined
  status?: 'success' | 'reverted' | undefined
  from?: Address | undefined
  balance?: bigint | undefined
  /** The contract a `deploy` created. */
  address?: Address | undefined
  /** What a `readContract` returned, as JSON (integers as decimal strings). */
  value?: unknown
  /** Why a transaction reverted or could not be sent (a decoded revert when the ABI knows it). */
  error?: string | undefined
  /** The block-wide index of the receipt's first log (a token transfer's `Transfer`), if it has one. */
  logIndex?: number | undefined
}

function address(value: string, what: string): Address {
  if (!isAddress(value, { strict: false }))
    throw new ChainActionError(`${what} "${value}" is not an address.`)
  return value
}

function compactAddress(caps: TargetCapabilities, chainId: number): Address {
  const named = namedContract(caps, 'compact', chainId)
  return named ? address(named, 'The Compact') : addresses.compact
}

/**
 * Carries out one chain step (already interpolated) over viem, waiting for the receipt.
 *
 * @example
 * await runChainAction(caps, { action: 'transfer', chainId: 1, from: 0, to: '0x…', token: 'native', amount: '1' })
 */
export async function runChainAction(
  caps: TargetCapabilities,
  step: Exclude<ChainStep['chain'], { action: 'receipts' }>,
): Promise<ChainActionResult> {
  const chainId = Number(step.chainId)
  const { chain, transport, publicClient } = clientsFor(caps, chainId)
  if (step.action === 'receipt') {
    const hash = step.hash as Hex
    if (!/^0x[0-9a-fA-F]{64}$/.test(hash))
      throw new ChainActionError(`"${step.hash}" is not a transaction hash.`)
    try {
      const receipt = await publicClient.waitForTransactionReceipt({
        hash,
        timeout: step.timeoutSeconds * 1000,
        pollingInterval: RECEIPT_POLL_MS,
      })
      return { hash, status: receipt.status, from: receipt.from }
    } catch (error) {
      return { hash, error: (error as Error).message.split('\n')[0] }
    }
  }
  if (step.action === 'readBalance') {
    const account = address(step.account, 'account')
    const balance =
      step.token === 'native'
        ? await publicClient.getBalance({ address: account })
        : await publicClient.readContract({
            address: address(step.token, 'token'),
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [account],
          })
    return { balance }
  }
  if (step.action === 'smartAccount') {
    const signer = signerAccount(caps, step.owner)
    const owner = signer.address
    const named = (name: string, fallback: Address) => {
      const found = namedContract(caps, name, chainId)
      return found ? address(found, name) : fallback
    }
    if (step.eip7702)
      return {
        value: await eip7702AccountOf(signer, await publicClient.getTransactionCount({ address: owner }), {
          implementation: named('nexusImplementation', addresses.nexusImplementation),
          bootstrap: named('nexusBootstrap', addresses.nexusBootstrap),
          intentExecutor: named('intentExecutor', addresses.intentExecutor),
        }),
      }
    const account = await smartAccountOf(publicClient, owner, {
      factory: named('nexusFactory', addresses.nexusFactory),
      bootstrap: named('nexusBootstrap', addresses.nexusBootstrap),
      intentExecutor: named('intentExecutor', addresses.intentExecutor),
    })
    return { value: account }
  }
  if (step.action === 'readContract') {
    const value = await publicClient.readContract({
      address: contractAddress(caps, step.address, chainId),
      abi: artifactAbi(step.abi),
      functionName: step.functionName,
      args: step.args,
    })
    return { value: toJson(value) }
  }
  const account = signerAccount(caps, step.from)
  return sendAs(account, step, { chain, transport, publicClient, caps, chainId })
}

/** A value a contract returned, as JSON: integers as decimal strings, arrays and structs kept. */
function toJson(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(toJson)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]))
  return value
}

function artifactOf(name: string): { abi: Abi; bytecode?: Hex } {
  const artifact = (artifacts as Record<string, { abi?: Abi; bytecode?: Hex }>)[name]
  if (!artifact?.abi)
    throw new ChainActionError(`No contract artifact named ${name} (contracts/generated/artifacts.ts).`)
  return artifact as { abi: Abi; bytecode?: Hex }
}

const artifactAbi = (name: string): Abi => artifactOf(name).abi

/** An address as given, or the manifest's contract of that name on the chain. */
function contractAddress(caps: TargetCapabilities, value: string, chainId: number): Address {
  const target = isAddress(value, { strict: false }) ? value : namedContract(caps, value, chainId)
  if (!target) throw new ChainActionError(`No contract "${value}" on chain ${chainId} in the manifest.`)
  return address(target, 'contract')
}

const inFlight = new Map<string, Promise<unknown>>()

/** Runs `task` once every earlier task of the same `key` has settled. */
function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = inFlight.get(key) ?? Promise.resolve()
  const next = previous.then(task, task)
  const settled = next.then(
    () => {},
    () => {},
  )
  inFlight.set(key, settled)
  void settled.then(() => {
    if (inFlight.get(key) === settled) inFlight.delete(key)
  })
  return next
}

/**
 * Sends again (with a nonce read anew) when the node refused the nonce: another process of a
 * sharded run sent from the same account in between. The refused transaction was not taken.
 */
async function retryOnNonce<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send()
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (attempt >= 3 || !/nonce too low|nonce has already been used/i.test(message)) throw error
    }
  }
}

/** Wallet clients by chain (its transport, made once per chain: clientsFor) and account. */
const walletClients = new WeakMap<object, WeakMap<PrivateKeyAccount, AccountWallet>>()

const makeWallet = (
  account: PrivateKeyAccount,
  chain: ReturnType<typeof clientsFor>['chain'],
  transport: ReturnType<typeof clientsFor>['transport'],
) => createWalletClient({ account, chain, transport })
type AccountWallet = ReturnType<typeof makeWallet>

/**
 * The wallet client of an account on a chain, made once per run rather than once per
 * transaction (a viem client holds no state of a transaction: its nonce is read per send).
 */
function walletClientOf(
  account: PrivateKeyAccount,
  chain: ReturnType<typeof clientsFor>['chain'],
  transport: ReturnType<typeof clientsFor>['transport'],
) {
  let byAccount = walletClients.get(transport)
  if (!byAccount) {
    byAccount = new WeakMap()
    walletClients.set(transport, byAccount)
  }
  let client = byAccount.get(account)
  if (!client) {
    client = makeWallet(account, chain, transport)
    byAccount.set(account, client)
  }
  return client
}

/** Sends a step's transaction as `account` and waits for its receipt. */
async function sendAs(
  account: PrivateKeyAccount,
  step: Exclude<
    ChainStep['chain'],
    { action: 'receipts' | 'receipt' | 'readBalance' | 'readContract' | 'smartAccount' }
  >,
  clients: ReturnType<typeof clientsFor> & { caps: TargetCapabilities; chainId: number },
): Promise<ChainActionResult> {
  const { chain, transport, publicClient, caps, chainId } = clients
  const client = walletClientOf(account, chain, transport)
  // Scenarios run side by side: an account sends one transaction at a time on a chain, from
  // taking its nonce (viem reads the pending count) until the node has it; receipts are awaited
  // outside, side by side.
  const lock = `${chainId} ${rpcUrlOf(caps, chainId)} ${account.address}`
  const wallet = {
    sendTransaction: ((parameters: Parameters<typeof client.sendTransaction>[0]) =>
      oneAtATime(lock, () =>
        retryOnNonce(() => client.sendTransaction(parameters)),
      )) as typeof client.sendTransaction,
    writeContract: ((parameters: Parameters<typeof client.writeContract>[0]) =>
      oneAtATime(lock, () =>
        retryOnNonce(() => client.writeContract(parameters)),
      )) as typeof client.writeContract,
  }
  let hash: Hex
  switch (step.action) {
    case 'transfer':
      hash =
        step.token === 'native'
          ? await wallet.sendTransaction({ to: address(step.to, 'to'), value: BigInt(step.amount) })
          : await wallet.writeContract({
              address: address(step.token, 'token'),
              abi: erc20Abi,
              functionName: 'transfer',
              args: [address(step.to, 'to'), BigInt(step.amount)],
            })
      break
    case 'approve':
      hash = await wallet.writeContract({
        address: address(step.token, 'token'),
        abi: erc20Abi,
        functionName: 'approve',
        args: [address(step.spender, 'spender'), BigInt(step.amount)],
      })
      break
    case 'depositCompact': {
      const recipient = step.recipient ? address(step.recipient, 'recipient') : account.address
      const compact = compactAddress(caps, chainId)
      const lockTag = step.lockTag as Hex
      hash =
        step.token === 'native'
          ? await wallet.writeContract({
              address: compact,
              abi: compactDepositAbi,
              functionName: 'depositNative',
              args: [lockTag, recipient],
              value: BigInt(step.amount),
            })
          : await wallet.writeContract({
              address: compact,
              abi: compactDepositAbi,
              functionName: 'depositERC20',
              args: [address(step.token, 'token'), lockTag, BigInt(step.amount), recipient],
            })
      break
    }
    case 'deploy': {
      const { abi, bytecode } = artifactOf(step.artifact)
      if (!bytecode || bytecode === '0x')
        throw new ChainActionError(`The artifact ${step.artifact} has no creation bytecode.`)
      hash = await oneAtATime(lock, () =>
        retryOnNonce(() => client.deployContract({ abi, bytecode, args: step.args, chain, account })),
      )
      const receipt = await publicClient.waitForTransactionReceipt({
        hash,
        timeout: 30_000,
        pollingInterval: RECEIPT_POLL_MS,
      })
      return {
        hash,
        status: receipt.status,
        from: account.address,
        address: receipt.contractAddress ?? undefined,
      }
    }
    case 'writeContract': {
      const call = {
        address: contractAddress(caps, step.address, chainId),
        abi: artifactAbi(step.abi),
        functionName: step.functionName,
        args: step.args,
        value: BigInt(step.value),
      }
      try {
        // Simulated first, so a revert is reported with its decoded reason.
        const { request } = await publicClient.simulateContract({ ...call, account })
        hash = await wallet.writeContract(request as Parameters<typeof client.writeContract>[0])
      } catch (error) {
        if (step.expectStatus === 'reverted') return { status: 'reverted', from: account.address }
        const e = error as { shortMessage?: string; message: string }
        return {
          from: account.address,
          status: 'reverted',
          error: e.shortMessage ?? e.message.split('\n')[0],
        }
      }
      break
    }
    case 'sendTransaction':
      hash = await wallet.sendTransaction({
        to: address(step.to, 'to'),
        data: step.data as Hex,
        value: BigInt(step.value),
      })
      break
  }
  const receipt = await publicClient.waitForTransactionReceipt({
    hash,
    timeout: 30_000,
    pollingInterval: RECEIPT_POLL_MS,
  })
  return { hash, status: receipt.status, from: account.address, logIndex: receipt.logs[0]?.logIndex }
}

/**
 * Signs EIP-712 typed data exactly as given (a blanc route's `signData` entries) with a funded
 * account of the target or a private key; an array gives an array of signatures.
 *
 * @example
 * const [signature] = await signTypedDataAs(caps, 0, [route.signData.origin[0]])
 */
export async function signTypedDataAs(
  caps: TargetCapabilities,
  from: number | string,
  typedData: unknown,
): Promise<Hex | Hex[]> {
  const account = signerAccount(caps, from)
  const sign = (data: unknown) => {
    if (typeof data !== 'object' || data === null || !('types' in data) || !('primaryType' in data))
      throw new ChainActionError(
        'The value to sign is not EIP-712 typed data ({domain, types, primaryType, message}).',
        {
          metaMessages: [`Got: ${JSON.stringify(data)?.slice(0, 200)}`],
        },
      )
    const { domain, types, primaryType, message } = data as Parameters<typeof account.signTypedData>[0]
    // EIP712Domain is implied by the domain; viem derives it.
    const { EIP712Domain: _, ...rest } = types as Record<string, unknown>
    return account.signTypedData({ domain, types: rest, primaryType, message } as Parameters<
      typeof account.signTypedData
    >[0])
  }
  return Array.isArray(typedData) ? Promise.all(typedData.map(sign)) : sign(typedData)
}
