/** How much of a body a report keeps. */
const EXCERPT_BYTES = 4096

/** A text cut to the first few KB a report keeps, saying how long it was. */
export function excerpt(text: string): string {
  return text.length > EXCERPT_BYTES ? `${text.slice(0, EXCERPT_BYTES)}… (${text.length} bytes)` : text
}
