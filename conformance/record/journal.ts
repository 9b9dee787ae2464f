import { closeSync, openSync, writevSync } from 'node:fs'
import { open, rm } from 'node:fs/promises'
import type { Hex } from 'viem'
import type {
  RecordedChainState,
  RecordedEvent,
  RecordedExchange,
  RecordedTransaction,
  RecordedWebhook,
} from './recording'

/**
 * The recording journal: every event the recorder saw, appended to a file as it happens, so a
 * long session holds next to nothing in memory and a recorder that is killed leaves a recording
 * that `intent-devnet record --from-journal` still turns into a scenario.
 *
 * A journal is a sequence of frames, each `u32 length | u32 header length | header JSON | bytes`:
 * the header says what the event is, the bytes are its bodies as they crossed the proxy (never
 * decoded or escaped on the hot path). Frames are written in batches at most 20 ms after they end. The first frame holds what is known of the target
 * (`meta`); a frame `secret` adds a webhook secret the client configured. A frame cut short by a
 * kill is where reading stops.
 */

/** What the journal's first frame holds: the recording's context (the API key is never written). */
export type JournalMeta = {
  target: string
  startedAt: string
  manifest?: unknown
  /** Devnet account keys from the target's manifest (a `--chains` file's are read again from `chainsFile`). */
  manifestAccountKeys: Hex[]
  chainsFile?: string | undefined
  chainState?: RecordedChainState | undefined
  chainStateProblem?: string | undefined
  webhookUrls: string[]
  faultsAtStart: string[]
}

/** How many events of each kind a journal holds. */
export type JournalCounts = { http: number; chain: number; webhook: number }

/** An HTTP exchange as the journal takes it: its bodies go beside it as bytes. */
export type JournalExchange = Omit<RecordedExchange, 'body' | 'response'> & {
  status?: number | undefined
  responseHeaders?: Record<string, string> | undefined
}

/** A journal being written. */
export type JournalWriter = {
  path: string
  counts: JournalCounts
  /** Appends an HTTP exchange (its bodies as bytes; `apiKey` occurrences in them are redacted). */
  exchange(exchange: JournalExchange, request: Buffer | undefined, response: Buffer | undefined): void
  transaction(event: RecordedTransaction): void
  webhook(event: Omit<RecordedWebhook, 'body'>, body: Buffer): void
  secret(secret: string): void
  /** Writes what is pending now (the journal is written in batches, at most 20 ms late). */
  flush(): void
  /** Flushes and closes the file. */
  close(): void
}

/** A journal's frames hold at most this much (a larger body is cut, and the cut said in the header). */
const MAX_BODY = 64 * 1024 * 1024
/** Pending bytes that force a write at once. */
const FLUSH_BYTES = 1024 * 1024
/**
 * Otherwise pending frames are written this long after the first of them: one write for many
 * exchanges under load (a write a request cost the proxy more than its parsing), and a kill loses
 * at most this much of the session.
 */
const FLUSH_MS = 20

/**
 * Creates (truncates) a journal at `path` and writes its meta frame.
 *
 * @example
 * const journal = openJournal('bug.yaml.journal', meta, apiKey)
 * journal.exchange(exchange, requestBytes, responseBytes)
 * journal.close()
 */
export function openJournal(path: string, meta: JournalMeta, apiKey: string): JournalWriter {
  const fd = openSync(path, 'w', 0o600)
  const counts: JournalCounts = { http: 0, chain: 0, webhook: 0 }
  const key = apiKey.length > 0 ? Buffer.from(apiKey) : undefined
  const redacted = Buffer.from(`\${apiKey}`)
  let pending: Buffer[] = []
  let pendingBytes = 0
  let scheduled = false
  let closed = false

  const redact = (bytes: Buffer): Buffer => {
    if (!key || bytes.indexOf(key) < 0) return bytes
    const parts: Buffer[] = []
    let from = 0
    for (let at = bytes.indexOf(key); at >= 0; at = bytes.indexOf(key, from)) {
      parts.push(bytes.subarray(from, at), redacted)
      from = at + key.length
    }
    parts.push(bytes.subarray(from))
    return Buffer.concat(parts)
  }
  const flush = () => {
    scheduled = false
    if (pending.length === 0 || closed) return
    const buffers = pending
    pending = []
    pendingBytes = 0
    // Synchronous, batched: one writev for every frame pending costs less than the promise machinery
    // of an async write, and once written a frame is in the page cache whatever happens to the process.
    let offset = 0
    let total = 0
    for (const b of buffers) total += b.length
    let list = buffers
    while (offset < total) {
      const written = writevSync(fd, list)
      offset += written
      if (offset < total) list = [Buffer.concat(buffers).subarray(offset)]
    }
  }
  const frame = (header: object, bodies: Buffer[]) => {
    if (closed) return
    const head = Buffer.from(JSON.stringify(header))
    const prefix = Buffer.allocUnsafe(8)
    let length = 4 + head.length
    for (const body of bodies) length += body.length
    prefix.writeUInt32LE(length, 0)
    prefix.writeUInt32LE(head.length, 4)
    pending.push(prefix, head, ...bodies)
    pendingBytes += 8 + length
    if (pendingBytes >= FLUSH_BYTES) flush()
    else if (!scheduled) {
      scheduled = true
      setTimeout(flush, FLUSH_MS).unref()
    }
  }
  const cut = (bytes: Buffer | undefined) =>
    bytes === undefined ? undefined : bytes.length > MAX_BODY ? bytes.subarray(0, MAX_BODY) : bytes

  frame({ k: 'meta', meta }, [])
  flush()
  return {
    path,
    counts,
    exchange(exchange, request, response) {
      counts.http++
      const q = cut(request && redact(request))
      const r = cut(response && redact(response))
      frame(
        {
          k: 'h',
          x: exchange,
          q: q?.length ?? -1,
          r: r?.length ?? -1,
        },
        [...(q ? [q] : []), ...(r ? [r] : [])],
      )
    },
    transaction(event) {
      counts.chain++
      frame({ k: 'c', x: event }, [])
    },
    webhook(event, body) {
      counts.webhook++
      const b = cut(redact(body))!
      frame({ k: 'w', x: event, b: b.length }, [b])
    },
    secret(secret) {
      frame({ k: 'secret', secret }, [])
    },
    flush,
    close() {
      if (closed) return
      flush()
      closed = true
      closeSync(fd)
    },
  }
}

/** What {@link readJournal} found. */
export type JournalContents = {
  meta: JournalMeta
  counts: JournalCounts
  webhookSecrets: string[]
  /** Bytes at the end that do not make a whole frame (a recorder killed mid-write). */
  truncatedBytes: number
}

/** Events are appended when they end; they are read back in the order they began within this window. */
const REORDER_WINDOW = 4096

/**
 * Reads a journal's meta, counts and secrets (one pass over its headers; bodies are skipped).
 *
 * @example
 * const { meta, counts } = await readJournal('bug.yaml.journal')
 */
export async function readJournal(path: string): Promise<JournalContents> {
  let meta: JournalMeta | undefined
  const counts: JournalCounts = { http: 0, chain: 0, webhook: 0 }
  const webhookSecrets: string[] = []
  let truncatedBytes = 0
  for await (const item of frames(path, false)) {
    if ('truncatedBytes' in item) {
      truncatedBytes = item.truncatedBytes
      continue
    }
    const { header } = item
    if (header.k === 'meta') meta = header.meta as JournalMeta
    else if (header.k === 'secret') webhookSecrets.push(header.secret as string)
    else if (header.k === 'h') counts.http++
    else if (header.k === 'c') counts.chain++
    else if (header.k === 'w') counts.webhook++
  }
  if (!meta) throw new Error(`${path} is not a recording journal (it has no meta frame).`)
  return { meta, counts, webhookSecrets, truncatedBytes }
}

/**
 * The journal's events in the order they began (`seq`), bodies decoded, one at a time. The
 * reorder window holds only each waiting event's header and where its body lies in the file;
 * a body is read and decoded when its event is yielded, so memory stays bounded by the window's
 * headers plus one event, whatever the size of the journal or of its bodies.
 *
 * @example
 * for await (const event of journalEvents('bug.yaml.journal')) console.log(event.seq)
 */
export async function* journalEvents(path: string): AsyncGenerator<RecordedEvent> {
  type Waiting = { seq: number; header: Record<string, unknown>; bodyAt: number; bodyLength: number }
  // A small binary heap on seq: events were appended when they ended, out of order by at most the
  // number of exchanges in flight at once.
  const heap: Waiting[] = []
  const push = (event: Waiting) => {
    heap.push(event)
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1
      if (heap[parent]!.seq <= heap[i]!.seq) break
      ;[heap[parent], heap[i]] = [heap[i]!, heap[parent]!]
      i = parent
    }
  }
  const pop = (): Waiting => {
    const top = heap[0]!
    const last = heap.pop()!
    if (heap.length > 0) {
      heap[0] = last
      for (let i = 0; ; ) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < heap.length && heap[l]!.seq < heap[m]!.seq) m = l
        if (r < heap.length && heap[r]!.seq < heap[m]!.seq) m = r
        if (m === i) break
        ;[heap[m], heap[i]] = [heap[i]!, heap[m]!]
        i = m
      }
    }
    return top
  }
  const bodies = await open(path, 'r')
  const decode = async (waiting: Waiting): Promise<RecordedEvent | undefined> => {
    const body = Buffer.allocUnsafe(waiting.bodyLength)
    let got = 0
    while (got < body.length) {
      const { bytesRead } = await bodies.read(body, got, body.length - got, waiting.bodyAt + got)
      if (bytesRead === 0) break
      got += bytesRead
    }
    return toEvent(waiting.header, body.subarray(0, got))
  }
  try {
    for await (const item of frames(path, false)) {
      if ('truncatedBytes' in item) continue
      const { header } = item
      if (header.k !== 'h' && header.k !== 'c' && header.k !== 'w') continue
      const seq = (header.x as { seq?: unknown } | undefined)?.seq
      push({
        seq: typeof seq === 'number' ? seq : Number.MAX_SAFE_INTEGER,
        header,
        bodyAt: item.bodyAt,
        bodyLength: item.bodyLength,
      })
      if (heap.length > REORDER_WINDOW) {
        const event = await decode(pop())
        if (event) yield event
      }
    }
    while (heap.length > 0) {
      const event = await decode(pop())
      if (event) yield event
    }
  } finally {
    await bodies.close()
  }
}

/** Deletes a journal (after its scenario was written). */
export async function removeJournal(path: string): Promise<void> {
  await rm(path, { force: true })
}

/** A frame: its header, its body (when read) and where the body lies in the file. */
type Frame = { header: Record<string, unknown>; body: Buffer; bodyAt: number; bodyLength: number }

function toEvent(header: Record<string, unknown>, body: Buffer): RecordedEvent | undefined {
  if (header.k === 'h') {
    const { status, responseHeaders, ...x } = header.x as RecordedExchange & {
      status?: number
      responseHeaders?: Record<string, string>
    }
    const q = header.q as number
    const r = header.r as number
    const request = q >= 0 ? body.subarray(0, q).toString('utf8') : undefined
    const response = r >= 0 ? body.subarray(Math.max(q, 0), Math.max(q, 0) + r).toString('utf8') : ''
    return {
      ...x,
      body: request,
      response: status === undefined ? undefined : { status, headers: responseHeaders ?? {}, body: response },
    }
  }
  if (header.k === 'c') return header.x as RecordedTransaction
  if (header.k === 'w') return { ...(header.x as Omit<RecordedWebhook, 'body'>), body: body.toString('utf8') }
  return undefined
}

/** The frames of a journal, read in 1 MiB blocks; the last item says how many bytes were left over. */
async function* frames(
  path: string,
  withBodies: boolean,
): AsyncGenerator<Frame | { truncatedBytes: number }> {
  const file = await open(path, 'r')
  try {
    const size = (await file.stat()).size
    let position = 0
    let block = Buffer.alloc(0)
    let blockStart = 0
    const read = async (at: number, length: number): Promise<Buffer | undefined> => {
      if (at + length > size) return undefined
      if (at >= blockStart && at + length <= blockStart + block.length)
        return block.subarray(at - blockStart, at - blockStart + length)
      const want = Math.max(length, 1 << 20)
      block = Buffer.allocUnsafe(Math.min(want, size - at))
      blockStart = at
      let got = 0
      while (got < block.length) {
        const { bytesRead } = await file.read(block, got, block.length - got, at + got)
        if (bytesRead === 0) break
        got += bytesRead
      }
      block = block.subarray(0, got)
      return got >= length ? block.subarray(0, length) : undefined
    }
    while (position < size) {
      const prefix = await read(position, 8)
      if (!prefix) break
      const length = prefix.readUInt32LE(0)
      const headLength = prefix.readUInt32LE(4)
      if (headLength > length - 4 || position + 4 + length > size) break
      const head = await read(position + 8, headLength)
      if (!head) break
      let header: Record<string, unknown>
      try {
        header = JSON.parse(head.toString('utf8')) as Record<string, unknown>
      } catch {
        break
      }
      let body = Buffer.alloc(0)
      const bodyLength = length - 4 - headLength
      if (withBodies && bodyLength > 0) {
        const bytes = await read(position + 8 + headLength, bodyLength)
        if (!bytes) break
        // A copy: the block is reused by the next read.
        body = Buffer.from(bytes)
      }
      yield { header, body, bodyAt: position + 8 + headLength, bodyLength }
      position += 4 + length
    }
    yield { truncatedBytes: size - position }
  } finally {
    await file.close()
  }
}
