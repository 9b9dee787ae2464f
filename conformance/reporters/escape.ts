/** Escapes text for XML and HTML content and attribute values. */
export function escapeXml(text: string): string {
  return (
    text
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      .replaceAll("'", '&apos;')
      // Characters XML 1.0 does not allow at all.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
  )
}

/** A value as one line of text for a report. */
export function show(value: unknown): string {
  if (value === undefined) return '(nothing)'
  return typeof value === 'string' ? value : JSON.stringify(value)
}
