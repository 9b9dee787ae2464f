/** Version alps, and the routes that serve only it. */
export const ALPS_ONLY = ['2026-01.alps'] as const
/** Version blanc, and the routes that serve only it. */
export const BLANC_ONLY = ['2026-04.blanc'] as const
