import type { Matcher } from '../scenario/httpStepSchema'
import { applyMatcher, readPath } from './matchers'

/** Which element of a list the client picked, by content: its recorded place → matchers on its fields. */
export type Choices = Record<string, Record<string, Matcher>>

/** What {@link chooseElements} found: the answer with each picked element at its recorded place, and what matched nothing. */
export type ChooseElementsReturnType = {
  json: unknown
  /** One line per choice no element matched, saying what was looked for and what the list holds. */
  unmatched: { place: string; message: string }[]
}

/**
 * Puts the element a client picked back where it was recorded: for each choice (`/routes/2` →
 * matchers on the route's fields, e.g. `/fundingMethod`, `/cost/input/0/chainId`), the first
 * element of that list whose fields all match (the one at the recorded place first) is swapped
 * into the recorded place, so the step's checks and captures read the element the client picked
 * even when the target lists them in another order. The answer itself is not changed (a copy of
 * the list is). A choice no element matches is said, with what each element offered.
 *
 * @example
 * const { json, unmatched } = chooseElements(answer, { '/routes/1': { '/fundingMethod': { equals: 'PERMIT2' } } })
 */
export function chooseElements(json: unknown, choices: Choices | undefined): ChooseElementsReturnType {
  if (!choices) return { json, unmatched: [] }
  let out = json
  const unmatched: ChooseElementsReturnType['unmatched'] = []
  for (const [place, where] of Object.entries(choices)) {
    const at = place.lastIndexOf('/')
    const listPath = place.slice(0, at)
    const index = Number(place.slice(at + 1))
    const list = readPath(out, listPath).value
    if (!Array.isArray(list) || !Number.isInteger(index)) {
      unmatched.push({ place, message: `${listPath || '/'} is not a list in the answer` })
      continue
    }
    const matches = (element: unknown) =>
      Object.entries(where).every(([path, matcher]) => applyMatcher(readPath(element, path), matcher).ok)
    const order = [index, ...list.keys()].filter((i, n) => n === 0 || i !== index)
    const found = order.find((i) => i < list.length && matches(list[i]))
    if (found === undefined) {
      const wanted = Object.entries(where)
        .map(([path, matcher]) => `${path} ${JSON.stringify(matcher.equals ?? matcher)}`)
        .join(', ')
      const offered = list.map((element, i) => `${i}: ${describe(element, Object.keys(where))}`).join('; ')
      unmatched.push({
        place,
        message: `no element of ${listPath} is the one the client picked (${wanted}); the answer lists ${list.length}: ${offered}`,
      })
      continue
    }
    if (found === index) continue
    const copy = [...list]
    ;[copy[index], copy[found]] = [copy[found], copy[index]]
    out = replaceAt(out, listPath, copy)
  }
  return { json: out, unmatched }
}

/** An element's values at the paths a choice looks at, for the message of a choice that matched nothing. */
function describe(element: unknown, paths: string[]): string {
  return paths.map((path) => `${path}=${JSON.stringify(readPath(element, path).value)}`).join(' ')
}

/** A copy of `value` with the value at a JSON pointer replaced (the parents on the way copied). */
function replaceAt(value: unknown, pointer: string, replacement: unknown): unknown {
  const segments = pointer.split('/').slice(1)
  const walk = (current: unknown, depth: number): unknown => {
    if (depth === segments.length) return replacement
    const key = segments[depth]!.replaceAll('~1', '/').replaceAll('~0', '~')
    if (Array.isArray(current)) {
      const copy = [...current]
      copy[Number(key)] = walk(current[Number(key)], depth + 1)
      return copy
    }
    const record = current as Record<string, unknown>
    return { ...record, [key]: walk(record[key], depth + 1) }
  }
  return walk(value, 0)
}
