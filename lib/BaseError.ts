/** Parameters of {@link BaseError}. */
export type BaseErrorParameters = {
  /** One more paragraph of explanation, printed under the short message. */
  details?: string | undefined
  /** Extra lines (one fact each) printed under the details. */
  metaMessages?: string[] | undefined
  /** Path of the docs page that explains this error (relative to the repository). */
  docsPath?: string | undefined
  /** The error that caused this one. */
  cause?: unknown
  /** Structured facts about the failure (an HTTP answer puts them in its error envelope). */
  data?: Record<string, unknown> | undefined
}

/**
 * The one base class of every error this project throws on purpose.
 *
 * `shortMessage` is what a CLI prints by default; `message` adds details and meta messages,
 * and `--verbose` walks the `cause` chain.
 *
 * @example
 * class ExpiredError extends BaseError {
 *   override name = 'Quote.ExpiredError'
 *   constructor(id: string) { super(`Quote ${id} has expired.`) }
 * }
 */
export class BaseError extends Error {
  override name = 'BaseError'
  readonly shortMessage: string
  readonly details: string | undefined
  readonly metaMessages: string[] | undefined
  readonly docsPath: string | undefined
  readonly data: Record<string, unknown> | undefined

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const lines = [shortMessage]
    if (parameters.metaMessages?.length) lines.push('', ...parameters.metaMessages)
    if (parameters.details) lines.push('', `Details: ${parameters.details}`)
    if (parameters.docsPath) lines.push(`Docs: ${parameters.docsPath}`)
    super(lines.join('\n'), parameters.cause === undefined ? undefined : { cause: parameters.cause })
    this.shortMessage = shortMessage
    this.details = parameters.details
    this.metaMessages = parameters.metaMessages
    this.docsPath = parameters.docsPath
    this.data = parameters.data
  }

  /** Walks the cause chain, returning the first error `fn` accepts (or the last one). */
  walk(fn?: (error: unknown) => boolean): unknown {
    let current: unknown = this
    while (current instanceof Error && current.cause !== undefined) {
      if (fn?.(current)) return current
      current = current.cause
    }
    return fn ? (fn(current) ? current : undefined) : current
  }
}
