// The explorer's state, shared by its views.

/** Where the API key is kept (this tab's session storage). */
export const KEY_STORAGE = 'intent-devnet.apiKey'
/** Rows a list page shows. */
export const PAGE_SIZE = 50

/** What the page knows: the key, the tab shown, the manifest, the clock, each list's paging. */
export const state = {
  key: null,
  tab: 'intents',
  manifest: null,
  clockOffset: 0,
  intents: { cursors: [undefined], page: 0, nextCursor: null, selected: null, search: null },
  quotes: { cursors: [undefined], page: 0, nextCursor: null, rows: [] },
  snapshots: [],
  lastSeq: undefined,
}
