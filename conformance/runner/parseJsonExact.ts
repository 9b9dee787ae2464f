/**
 * Parses JSON without losing integers: a whole number beyond 2^53 (a raw token amount, a lock
 * id) becomes its exact decimal string, so a target that answers JSON numbers, as the spec's
 * withdrawal fields are typed, is judged on the number it sent, not on a rounded double.
 *
 * @example
 * parseJsonExact('{"id":21888242871839275222246405745257275088548364400416034343698204186575808495617}')
 * // { id: '21888242871839275222246405745257275088548364400416034343698204186575808495617' }
 */
export function parseJsonExact(text: string): unknown {
  // An integer beyond 2^53 has 16 digits or more, and a number outside strings follows `:`,
  // `[`, `,`, white space or the start: without such a run (most answers: their amounts are
  // strings) there is none to keep, and the text parses as it is, several times faster.
  if (!UNSAFE_INTEGER_CANDIDATE.test(text)) return JSON.parse(text)
  let out = ''
  let last = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === QUOTE) {
      // To the string's closing quote (past escaped characters), or the end of an unclosed one.
      let from = i + 1
      for (;;) {
        const quote = text.indexOf('"', from)
        const backslash = text.indexOf('\\', from)
        if (backslash !== -1 && (quote === -1 || backslash < quote)) {
          from = backslash + 2
          continue
        }
        i = quote === -1 ? text.length : quote
        break
      }
      continue
    }
    if (code === MINUS || (code >= ZERO && code <= NINE)) {
      NUMBER.lastIndex = i
      let token = NUMBER.exec(text)?.[0] ?? text[i]!
      // A token is read from at most 400 characters.
      if (token.length > 400) token = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))![0]
      if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(last, i)}"${token}"`
        last = i + token.length
      }
      i += token.length - 1
    }
  }
  return JSON.parse(out + text.slice(last))
}

const QUOTE = 34
const MINUS = 45
const ZERO = 48
const NINE = 57
/** A number token from where the scan stands (sticky). */
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y

/** Where a number of 16 digits or more may stand outside a string (see {@link parseJsonExact}). */
const UNSAFE_INTEGER_CANDIDATE = /(?:^|[:[,\s])-?\d{16}/
