import { execFile } from 'node:child_process'
import { rmSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import http from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** What a client saw of one oversized upload: the status it read (0: none) and its error, if any. */
export type UploadOutcome = { status: number; error?: string | undefined }

/** One way of sending a body: a real HTTP client stack. */
export type UploadClient = {
  name: string
  upload(url: string, headers: Record<string, string>, body: Buffer): Promise<UploadOutcome>
  close?(): void
}

/** A JSON-looking body of `size` bytes (one long string field). */
export const bigBody = (size: number): Buffer => {
  const body = Buffer.alloc(size, 'x')
  body.write('{"pad":"', 0)
  body.write('"}', size - 2)
  return body
}

/** Node's http.request on a given agent, the body written at once (`request.end(body)`). */
function nodeHttp(name: string, agent: http.Agent | false): UploadClient {
  return {
    name,
    upload: (url, headers, body) =>
      new Promise((resolve) => {
        const request = http.request(url, { method: 'POST', headers, agent }, (response) => {
          response.resume()
          response.on('end', () => resolve({ status: response.statusCode ?? 0 }))
          response.on('error', (error) => resolve({ status: response.statusCode ?? 0, error: error.message }))
        })
        request.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ status: 0, error: error.code ?? error.message }),
        )
        request.end(body)
      }),
    close: () => (agent ? agent.destroy() : undefined),
  }
}

/** fetch (undici), the body as one buffer. */
const fetchClient: UploadClient = {
  name: 'fetch',
  upload: async (url, headers, body) => {
    try {
      const response = await fetch(url, { method: 'POST', headers, body })
      await response.arrayBuffer()
      return { status: response.status }
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause
      return { status: 0, error: cause?.code ?? (error as Error).message }
    }
  },
}

/** curl, the body from a file (curl sends `Expect: 100-continue` for a body over 1 MiB). */
function curlClient(): UploadClient {
  const files = new Map<number, string>()
  return {
    name: 'curl',
    upload: async (url, headers, body) => {
      let file = files.get(body.length)
      if (!file) {
        file = join(tmpdir(), `upload-${process.pid}-${body.length}.json`)
        await writeFile(file, body)
        files.set(body.length, file)
      }
      const args = ['-s', '-o', '/dev/null', '-w', '%{http_code}', '--data-binary', `@${file}`, url]
      for (const [key, value] of Object.entries(headers)) args.unshift('-H', `${key}: ${value}`)
      return new Promise((resolve) =>
        execFile('curl', args, (error, stdout) =>
          resolve({ status: Number(stdout) || 0, error: error ? `curl exit ${error.code}` : undefined }),
        ),
      )
    },
    close: () => {
      for (const file of files.values()) rmSync(file, { force: true })
      files.clear()
    },
  }
}

/** A raw socket: the request head, then the body as fast as the socket takes it, reading all the while. */
const rawSocket: UploadClient = {
  name: 'raw socket',
  upload: (url, headers, body) =>
    new Promise((resolve) => {
      const { hostname, port, pathname } = new URL(url)
      const socket = net.connect(Number(port), hostname)
      let out = ''
      const done = (error?: string) => {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0)
        resolve({ status, error })
      }
      socket.on('data', (chunk) => {
        out += chunk
      })
      socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message))
      socket.on('close', () => done())
      const head = Object.entries({ ...headers, 'content-length': String(body.length), connection: 'close' })
        .map(([key, value]) => `${key}: ${value}\r\n`)
        .join('')
      socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}\r\n${head}\r\n`)
      let offset = 0
      const pump = () => {
        while (offset < body.length) {
          const chunk = body.subarray(offset, offset + 64 * 1024)
          offset += chunk.length
          if (!socket.write(chunk)) return void socket.once('drain', pump)
        }
      }
      pump()
    }),
}

/**
 * The clients of the 413 matrix (issue 31): Node http without and with keep-alive, fetch, curl
 * and a raw socket. Close each when done (the keep-alive agent holds sockets).
 *
 * @example
 * for (const client of uploadClients()) await client.upload(url, headers, bigBody(6 * 1024 * 1024))
 */
export function uploadClients(): UploadClient[] {
  return [
    nodeHttp('node http, new connection each', false),
    nodeHttp('node http, keep-alive agent', new http.Agent({ keepAlive: true, maxSockets: 1 })),
    fetchClient,
    curlClient(),
    rawSocket,
  ]
}
