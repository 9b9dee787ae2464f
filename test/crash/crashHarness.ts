import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hash,
  type Hex,
  http,
  parseUnits,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { toTypedDataDefinition } from '../../simulator/settlement/toTypedDataDefinition'
import type { DevnetManifest } from '../../spec'

/**
 * The crash harness: runs `intent-devnet up --state-dir` as a real process, puts intents and
 * deposits through it over HTTP and the chains' RPC, kills it with SIGKILL, restarts it, and
 * checks every accepted intent and deposit against the chains. Used by test/crash/crash.test.ts
 * and scripts/bench/crash.ts.
 */

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'intent-devnet.js')
const BLANC = '2026-04.blanc'
/** The chains the harness runs: origin 10, destination 8453. */
export const CRASH_CHAINS = [10, 8453] as const

/** A devnet process started by {@link startDevnetProcess}. */
export type DevnetProcess = {
  pid: number
  baseUrl: string
  apiKey: string
  manifest: DevnetManifest
  child: ChildProcess
  /** Resolves when the process has exited. */
  exited: Promise<void>
  /** Everything it printed. */
  output(): string
}

/** Starts `intent-devnet up --state-dir DIR` and resolves once it answers `/_devnet/manifest`. */
export async function startDevnetProcess(stateDir: string): Promise<DevnetProcess> {
  const child = spawn(
    process.execPath,
    [BIN, 'up', '--port', '0', '--chains', CRASH_CHAINS.join(','), '--state-dir', stateDir],
    // Its own process group, as a command run in a terminal is: Ctrl-C is SIGINT to the group.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const deadline = Date.now() + 60_000
  let baseUrl: string | undefined
  while (!baseUrl) {
    baseUrl = output.match(/is up at (http:\/\/\S+)/)?.[1]
    if (baseUrl) break
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`intent-devnet up did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 25))
  }
  const apiKey = output.match(/API key:\s+(\S+)/)?.[1] ?? 'devnet-key'
  const manifest = (await (
    await fetch(`${baseUrl}/_devnet/manifest`, { headers: { 'x-api-key': apiKey } })
  ).json()) as DevnetManifest
  return { pid: child.pid!, baseUrl, apiKey, manifest, child, exited, output: () => output }
}

/** Ctrl-C in the terminal: SIGINT to the service's whole process group. */
export async function interrupt(devnet: DevnetProcess): Promise<void> {
  process.kill(-devnet.pid, 'SIGINT')
  await devnet.exited
}

/** Sends SIGKILL to the service (only the service: its Anvils get their parent-death signal). */
export async function killHard(devnet: DevnetProcess): Promise<void> {
  devnet.child.kill('SIGKILL')
  await devnet.exited
}

/** Live (not zombie) Anvil processes whose command line names `stateDir`. */
export function anvilsOf(stateDir: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const [, comm, state] = stat.match(/^\d+ \((.*)\) (\S)/) ?? []
        if (comm !== 'anvil' || state === 'Z') return []
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(stateDir) ? [Number(pid)] : []
      } catch {
        return []
      }
    })
}

/**
 * The Anvils of `stateDir` still alive after `timeoutMs`: they get SIGTERM when the service dies
 * and write their exit dump first, which takes a moment.
 */
export async function anvilsLeftAfter(stateDir: string, timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs
  while (anvilsOf(stateDir).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
  return anvilsOf(stateDir)
}

const usdc = (n: number) => parseUnits(String(n), 6)
const tokenOf = (manifest: DevnetManifest, chainId: number, symbol: string) =>
  manifest.chains.find((c) => c.chainId === chainId)!.tokens.find((t) => t.symbol === symbol)!
    .address as Address
const rpcOf = (manifest: DevnetManifest, chainId: number) =>
  manifest.chains.find((c) => c.chainId === chainId)!.rpcUrl

async function call(
  devnet: Pick<DevnetProcess, 'baseUrl' | 'apiKey'>,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await fetch(`${devnet.baseUrl}${path}`, {
    method,
    headers: {
      'x-api-key': devnet.apiKey,
      'x-api-version': BLANC,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of several shapes
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any }
}

/** An intent the harness submitted: accepted (the submit answered 201) or not. */
export type SubmittedIntent = { intentId: string; recipient: Address; amount: bigint; accepted: boolean }

/**
 * Quotes, signs and submits one blanc intent (Compact funding from a funded devnet account on
 * chain 10, `amount` USDC to a fresh recipient on 8453). A submit cut off by a crash is not
 * accepted.
 */
export async function submitIntent(
  devnet: DevnetProcess,
  accountIndex: number,
  amount = usdc(1),
): Promise<SubmittedIntent> {
  const { manifest } = devnet
  const user = privateKeyToAccount(manifest.accounts[accountIndex]!.privateKey as Hex)
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const quote = await call(devnet, 'POST', '/intents/route', {
    destinationChainId: 8453,
    tokenRequests: [{ tokenAddress: tokenOf(manifest, 8453, 'USDC'), amount: amount.toString() }],
    account: { address: user.address, accountType: 'EOA' },
    recipient: { address: recipient, accountType: 'EOA' },
    accountAccessList: { chainIds: [10] },
  })
  if (quote.status !== 200) throw new Error(`quote answered ${quote.status}: ${JSON.stringify(quote.body)}`)
  const route = quote.body.routes.find((r: { fundingMethod: string }) => r.fundingMethod === 'COMPACT')
  if (!route) throw new Error('no COMPACT route')
  const sign = (td: Parameters<typeof toTypedDataDefinition>[0]) =>
    user.signTypedData(toTypedDataDefinition(td))
  const origin = await Promise.all(route.signData.origin.map(sign))
  const destination = await sign(route.signData.destination)
  const intent = { intentId: route.intentId as string, recipient, amount, accepted: false }
  const submitted = await call(devnet, 'POST', `/intents/${route.intentId}/submit`, {
    signatures: { origin, destination },
  }).catch(() => undefined)
  intent.accepted = submitted?.status === 201
  return intent
}

/** A deposit the harness made: a USDC transfer on chain 10 to an account registered to 8453. */
export type MadeDeposit = { account: Address; hash: Hash; amount: bigint }

/** Registers a fresh account (target 8453) and transfers `amount` USDC to it on chain 10. */
export async function makeDeposit(
  devnet: DevnetProcess,
  accountIndex: number,
  amount = usdc(20),
): Promise<MadeDeposit> {
  const { manifest } = devnet
  const account = privateKeyToAccount(generatePrivateKey()).address
  const registered = await call(devnet, 'POST', '/deposit-processor/register', {
    account,
    targetChainId: 8453,
  })
  if (registered.status >= 300)
    throw new Error(`register answered ${registered.status}: ${JSON.stringify(registered.body)}`)
  const from = privateKeyToAccount(manifest.accounts[accountIndex]!.privateKey as Hex)
  const wallet = createWalletClient({ account: from, transport: http(rpcOf(manifest, 10)) })
  const hash = await wallet.writeContract({
    chain: null,
    address: tokenOf(manifest, 10, 'USDC'),
    abi: erc20Abi,
    functionName: 'transfer',
    args: [account, amount],
  })
  return { account, hash, amount }
}

/** What {@link verify} found wrong; empty when everything holds. */
export type Violations = string[]

/**
 * Checks the restarted devnet against the chains, once it has settled what it resumed:
 * every accepted intent is known and COMPLETED, its fill and claim transactions are on chain,
 * and its recipient holds exactly the amount (paid once); an intent whose submit was cut off is
 * either unknown or, if the service had accepted it, obeys the same rules. Every deposit whose
 * transfer is on chain is paid out exactly once, by a payout that is on chain.
 */
export async function verify(
  devnet: DevnetProcess,
  intents: readonly SubmittedIntent[],
  deposits: readonly MadeDeposit[],
  options: { timeoutMs?: number } = {},
): Promise<Violations> {
  const { manifest } = devnet
  const clients = new Map(
    CRASH_CHAINS.map((chainId) => [
      chainId,
      createPublicClient({ transport: http(rpcOf(manifest, chainId)) }),
    ]),
  )
  const client = (chainId: number) => clients.get(chainId as (typeof CRASH_CHAINS)[number])!
  const onChain = (chainId: number, hash: Hash) =>
    client(chainId)
      .getTransactionReceipt({ hash })
      .then((r) => r.status === 'success')
      .catch(() => false)
  const balance = (chainId: number, symbol: string, owner: Address) =>
    client(chainId).readContract({
      address: tokenOf(manifest, chainId, symbol),
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [owner],
    })
  const violations: Violations = []
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  const waitFinal = async (path: string) => {
    for (;;) {
      const answer = await call(devnet, 'GET', path)
      if (answer.status !== 200 || ['COMPLETED', 'FAILED', 'EXPIRED'].includes(answer.body.status))
        return answer
      if (Date.now() > deadline) return answer
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  for (const intent of intents) {
    const answer = await waitFinal(`/intents/${intent.intentId}`)
    if (answer.status === 404 && !intent.accepted) continue
    if (answer.status !== 200) {
      violations.push(
        `intent ${intent.intentId} (accepted ${intent.accepted}): GET answered ${answer.status}`,
      )
      continue
    }
    const status = answer.body
    if (status.status !== 'COMPLETED') {
      violations.push(`intent ${intent.intentId}: ${status.status} (${JSON.stringify(status).slice(0, 300)})`)
      continue
    }
    const operations = status.operations as {
      chain: number
      items: { type: string; txHash?: Hash | null }[]
    }[]
    const hashes = operations.flatMap((op) => op.items.map((item) => ({ chain: op.chain, ...item })))
    if (!hashes.some((item) => item.type === 'FILL' && item.txHash))
      violations.push(`intent ${intent.intentId}: COMPLETED without a fill transaction`)
    for (const item of hashes)
      if (item.txHash && !(await onChain(item.chain, item.txHash)))
        violations.push(
          `intent ${intent.intentId}: ${item.type} ${item.txHash} on ${item.chain} is not on chain`,
        )
    const paid = await balance(8453, 'USDC', intent.recipient)
    if (paid !== intent.amount)
      violations.push(
        `intent ${intent.intentId}: recipient holds ${paid}, expected ${intent.amount} (paid once)`,
      )
  }
  for (const deposit of deposits) {
    if (!(await onChain(10, deposit.hash))) continue
    let record: { status: string; bridgeTransactionHash?: Hash; target?: { amount: string } } | undefined
    for (;;) {
      const list = await call(devnet, 'GET', `/deposit-processor/deposits?account=${deposit.account}`)
      record = list.body?.deposits?.find((d: { transactionHash: Hash }) => d.transactionHash === deposit.hash)
      if ((record && record.status !== 'processing') || Date.now() > deadline) break
      await new Promise((r) => setTimeout(r, 100))
    }
    if (!record) {
      violations.push(`deposit ${deposit.hash}: on chain, unknown to the processor`)
      continue
    }
    if (record.status !== 'completed' || !record.bridgeTransactionHash || !record.target) {
      violations.push(`deposit ${deposit.hash}: ${record.status}`)
      continue
    }
    if (!(await onChain(8453, record.bridgeTransactionHash)))
      violations.push(`deposit ${deposit.hash}: payout ${record.bridgeTransactionHash} is not on chain`)
    const held = await balance(8453, 'USDC', deposit.account)
    if (held !== BigInt(record.target.amount))
      violations.push(`deposit ${deposit.hash}: account holds ${held}, paid ${record.target.amount} (once)`)
  }
  return violations
}
