import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AlpsRouteResponse, DevnetManifest } from '../spec'

const bin = join(__dirname, '..', 'bin', 'intent-devnet.js')

/** Children of `pid` (from /proc), to prove the Anvils go away with the CLI. */
function childPids(pid: number): number[] {
  const path = `/proc/${pid}/task/${pid}/children`
  return existsSync(path) ? readFileSync(path, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number) : []
}

describe('intent-devnet up (the real CLI)', () => {
  it('refuses a swap fee outside 0–9999 bps before starting anything', async () => {
    const child = spawn(process.execPath, [bin, 'up', '--port', '0', '--swap-fee-bps', '10000'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).not.toBe(0)
    expect(output).toContain('--swap-fee-bps must be at most 9999')
  })

  /** Runs `up` with `args` until it exits; answers its exit code and what it wrote to stderr. */
  async function upFails(args: string[]) {
    const child = spawn(process.execPath, [bin, 'up', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    return { code, output }
  }

  it('refuses a --gas-price that is not CHAIN=GWEI or not a positive gwei value, naming the chain', async () => {
    const bad = await upFails(['--port', '0', '--gas-price', '8453=abc'])
    expect(bad.code).not.toBe(0)
    expect(bad.output).toContain('--gas-price takes gwei as a decimal number')
    expect(bad.output).toContain('8453=abc')
    const shape = await upFails(['--port', '0', '--gas-price', 'base'])
    expect(shape.code).not.toBe(0)
    expect(shape.output).toContain('--gas-price takes CHAIN=GWEI')
  })

  it('names the port in use and says it is in use', async () => {
    const { createServer } = await import('node:net')
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as { port: number }).port
    try {
      const { code, output } = await upFails(['--port', String(port), '--chains', '8453'])
      expect(code).not.toBe(0)
      expect(output).toContain(`Cannot listen on 127.0.0.1:${port}: port ${port} is already in use`)
    } finally {
      taken.close()
    }
  }, 60_000)

  it('boots the devnet, serves it, writes the manifest, and stops every Anvil on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'up-'))
    const manifestPath = join(dir, 'manifest.json')
    const child = spawn(
      process.execPath,
      [bin, 'up', '--port', '0', '--chains', '10,8453', '--swap-fee-bps', '25', '--manifest', manifestPath],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    try {
      let output = ''
      const baseUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start line; output:\n${output}`)), 60_000)
        const onData = (chunk: Buffer) => {
          output += chunk.toString()
          const match = output.match(/intent-devnet is up at (http:\/\/\S+)/)
          if (match && output.includes('funded accounts')) {
            clearTimeout(timer)
            resolve(match[1]!)
          }
        }
        child.stdout.on('data', onData)
        child.stderr.on('data', onData)
        child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)))
      })
      expect(output).toContain('API key:   devnet-key')
      const health = await fetch(`${baseUrl}/health`)
      expect(health.status).toBe(200)
      const manifest = DevnetManifest.parse(JSON.parse(readFileSync(manifestPath, 'utf8')))
      expect(manifest.service.baseUrl).toBe(baseUrl)
      expect(manifest.chains.map((c) => c.chainId)).toEqual([10, 8453])

      // --swap-fee-bps reaches quoting: 100 USDC bought with WETH (the only token allowed) costs
      // a swap fee of 25 bps of the value swapped (a little over 100 USDC, fees included).
      const usdc = manifest.chains[1]?.tokens.find((t) => t.symbol === 'USDC')?.address
      const quote = await fetch(`${baseUrl}/intents/route`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': 'devnet-key',
          'x-api-version': '2026-01.alps',
        },
        body: JSON.stringify({
          destinationChainId: 8453,
          tokenRequests: [{ tokenAddress: usdc, amount: '100000000' }],
          account: { address: manifest.accounts[0]?.address, accountType: 'EOA' },
          accountAccessList: { tokens: ['WETH'] },
        }),
      })
      expect(quote.status).toBe(200)
      const body = AlpsRouteResponse.parse(await quote.json())
      const swapFee = BigInt(body.intentCost.tokensReceived[0]?.feeBreakdown.swapFee ?? -1)
      expect(swapFee).toBeGreaterThanOrEqual(250_000n)
      expect(swapFee).toBeLessThanOrEqual(260_000n)

      const anvils = childPids(child.pid!)
      expect(anvils.length).toBe(2)
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      for (const pid of anvils)
        expect(
          existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '),
        ).toBe(false)
    } finally {
      child.kill('SIGKILL')
      await rm(dir, { recursive: true, force: true })
    }
  })
})
