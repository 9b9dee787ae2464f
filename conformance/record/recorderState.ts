import type { Agent as HttpAgent } from 'node:http'
import type { Agent as HttpsAgent } from 'node:https'
import type { JournalWriter } from './journal'

/**
 * What a running recorder knows, in one place: the target, the chains it proxies, the client's
 * webhook receivers and secrets, the proxy's base URL once it listens, the journal, and the
 * sequence of events. `startRecorder.ts` owns it; the stand-ins (`standIn.ts`) read and add to it.
 *
 * @example
 * const answer = await proxyRpc(state, 10, body)
 */
export type RecorderState = {
  target: string
  targetUrl: URL
  /** Keep-alive connections for the recorder's own requests (RPC, webhook forwarding). */
  agent: HttpAgent | HttpsAgent
  chains: { chainId: number; rpcUrl: string }[]
  /** The client's webhook URL for each stand-in receiver (`/_record/webhook/<index>`). */
  webhookTargets: (string | undefined)[]
  webhookSecrets: Set<string>
  /** The proxy's base URL (known once it listens). */
  base: string
  journal?: JournalWriter | undefined
  /** The last event's sequence number. */
  seq: number
  /** Milliseconds since the recording started. */
  at(time?: number): number
}
