import { createServer, type Server } from 'node:net'

/**
 * A free port N with N + 1, …, N + count - 1 free too on 127.0.0.1 (for `--rpc-port N`, which
 * puts the chains on consecutive ports). Free when checked: a race with another process remains.
 *
 * @example
 * const rpcPort = await freePorts(2)
 */
export async function freePorts(count: number): Promise<number> {
  const listen = (port: number) =>
    new Promise<Server | undefined>((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(undefined))
      server.listen(port, '127.0.0.1', () => resolve(server))
    })
  for (;;) {
    const first = await listen(0)
    const port = (first!.address() as { port: number }).port
    const rest = await Promise.all(Array.from({ length: count - 1 }, (_, i) => listen(port + 1 + i)))
    await Promise.all(
      [first, ...rest].map((server) => new Promise((done) => (server ? server.close(done) : done(0)))),
    )
    if (rest.every(Boolean) && port + count < 65535) return port
  }
}
