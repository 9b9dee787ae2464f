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
  let out = ''
  let last = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      if (char === '\\') i++
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') {
      inString = true
      continue
    }
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
      const token = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))?.[0] ?? char
      if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(last, i)}"${token}"`
        last = i + token.length
      }
      i += token.length - 1
    }
  }
  return JSON.parse(out + text.slice(last))
}
