// The quotes tab: the blanc quote store, newest first, with each quote's time left.
import { api, report } from './api.js'
import { PAGE_SIZE, state } from './state.js'
import { $, amount, badge, chainName, devnetNow, esc, short, time } from './util.js'

/** Loads the page of quotes shown. */
export async function loadQuotes() {
  const s = state.quotes
  const cursor = s.cursors[s.page]
  const query = new URLSearchParams({ limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) })
  const list = await api(`/_devnet/explorer/quotes?${query}`)
  state.clockOffset = list.now - Math.floor(Date.now() / 1000)
  s.nextCursor = list.nextCursor
  s.rows = list.quotes
  $('quotes-total').textContent = list.total ? `(${list.total})` : ''
  $('quotes-ttl').textContent =
    `blanc quotes live ${list.ttlSeconds} s on the devnet clock; a submit consumes its quote`
  $('quotes-newer').disabled = s.page === 0
  $('quotes-older').disabled = !list.nextCursor
  renderQuotes()
}

/** Shows the quotes loaded, with the time each has left now. */
export function renderQuotes() {
  const rows = state.quotes.rows
  $('quotes-body').innerHTML =
    rows.length === 0
      ? '<tr class="empty"><td colspan="9">The quote store is empty.</td></tr>'
      : rows
          .map((q) => {
            const left = q.expiresAt - devnetNow()
            return `<tr data-quote-id="${esc(q.intentId)}">
      <td class="mono" title="${esc(q.intentId)}">${esc(short(q.intentId, 8, 4))}</td>
      <td class="mono" title="${esc(q.account)}">${esc(short(q.account))}</td>
      <td>${esc(q.originChainIds.map(chainName).join(' + '))} → ${esc(chainName(q.destinationChainId))}</td>
      <td>${esc(q.fundingMethod)}</td>
      <td>${q.outputs.map(amount).join('<br>')}</td>
      <td>$${esc(q.totalCostUsd.toFixed(4))}</td>
      <td>${time(q.quotedAt)}</td>
      <td>${time(q.expiresAt)}</td>
      <td>${left > 0 ? `${left} s` : badge('EXPIRED')}</td></tr>`
          })
          .join('')
}

/** Wires the quotes tab's pager. */
export function initQuotes() {
  $('quotes-older').addEventListener('click', () => {
    const s = state.quotes
    if (!s.nextCursor) return
    s.cursors[s.page + 1] = s.nextCursor
    s.page += 1
    loadQuotes().catch(report)
  })
  $('quotes-newer').addEventListener('click', () => {
    if (state.quotes.page === 0) return
    state.quotes.page -= 1
    loadQuotes().catch(report)
  })
}
