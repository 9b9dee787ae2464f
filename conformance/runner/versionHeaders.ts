import type { Version } from '../scenario/schema'

/** The header value of each version (spec: Versioning §3). */
export const VERSION_HEADERS = { alps: '2026-01.alps', blanc: '2026-04.blanc' } as const satisfies Record<
  Version,
  string
>
