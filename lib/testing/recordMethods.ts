import type { Transport } from 'viem'

/**
 * A transport that hands every request to `transport` and first pushes its JSON-RPC method to
 * `methods` (tests that pin which calls, and how many, reach the node).
 *
 * @example
 * const methods: string[] = []
 * const client = createPublicClient({ chain, transport: recordMethods(keepAliveTransport(url), methods) })
 */
export function recordMethods<T extends Transport>(transport: T, methods: string[]): T {
  const recorded = ((options: Parameters<T>[0]) => {
    const made = transport(options)
    return {
      ...made,
      request: (args: { method: string }) => {
        methods.push(args.method)
        return made.request(args as Parameters<typeof made.request>[0])
      },
    }
  }) as T
  return recorded
}
