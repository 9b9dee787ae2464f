// The intents tab: the list (newest first, paged, live), search by intentId or id, and the
// selected intent's detail: timeline, fee parts, signatures.
import { api, report } from './api.js'
import { PAGE_SIZE, state } from './state.js'
import { $, amount, badge, chainName, esc, short, time, toast, txLink, usd } from './util.js'

const EMPTY =
  '<tr class="empty"><td colspan="9">No intents yet. Submit one (POST /intents/route, then submit) and it shows here live.</td></tr>'

/** Loads the page of intents shown (or the searched one). */
export async function loadIntents() {
  const s = state.intents
  if (s.search) return showSearch(s.search)
  const cursor = s.cursors[s.page]
  const query = new URLSearchParams({ limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) })
  const list = await api(`/_devnet/explorer/intents?${query}`)
  s.nextCursor = list.nextCursor
  $('intents-total').textContent = list.total ? `(${list.total})` : ''
  $('intents-page').textContent = `page ${s.page + 1} of ${Math.max(1, Math.ceil(list.total / PAGE_SIZE))}`
  $('intents-newer').disabled = s.page === 0
  $('intents-older').disabled = !list.nextCursor
  $('intents-body').innerHTML = list.intents.length === 0 ? EMPTY : list.intents.map(intentRow).join('')
  if (s.selected && list.intents.some((i) => i.id === s.selected)) loadIntentDetail(s.selected).catch(report)
}

/** Shows the one intent whose intentId (blanc) or id is `text`, or says there is none. */
async function showSearch(text) {
  const list = await api(`/_devnet/explorer/intents?${new URLSearchParams({ search: text })}`)
  $('intents-page').textContent = 'search'
  $('intents-newer').disabled = true
  $('intents-older').disabled = true
  const intent = list.intents[0]
  if (!intent) {
    $('intents-body').innerHTML =
      `<tr class="empty"><td colspan="9">No intent with the intentId or id <span class="mono">${esc(text)}</span>.</td></tr>`
    return
  }
  state.intents.selected = intent.id
  $('intents-body').innerHTML = intentRow(intent)
  await loadIntentDetail(intent.id)
}

/** One row: the intentId a client holds (blanc) with the intent's id under it. */
function intentRow(i) {
  const name = i.intentId
    ? `<span title="${esc(i.intentId)}">${esc(short(i.intentId, 8, 4))}</span><div class="muted">#${esc(i.id)}</div>`
    : `<span title="${esc(i.id)}">#${esc(short(i.id, 8, 4))}</span>`
  return `<tr data-intent-id="${esc(i.id)}" class="${i.id === state.intents.selected ? 'selected' : ''}">
    <td class="mono">${name}</td>
    <td>${esc(i.version)}</td>
    <td class="mono" title="${esc(i.account)}">${esc(short(i.account))}</td>
    <td>${esc(i.originChainIds.map(chainName).join(' + '))} → ${esc(chainName(i.destinationChainId))}</td>
    <td>${i.inputs.map(amount).join('<br>')}</td>
    <td>${i.outputs.map(amount).join('<br>')}</td>
    <td class="status">${badge(i.status)}${i.failureReason ? `<div class="reason">${esc(i.failureReason)}</div>` : ''}</td>
    <td class="fill-tx">${txLink(i.destinationChainId, i.fillTransactionHash)}</td>
    <td>${time(i.createdAt)}</td>
  </tr>`
}

const STEP_CLASS = { COMPLETED: 'done', FAILED: 'bad', EXPIRED: 'bad', QUOTED: 'done' }

/** Loads and shows one intent's detail. */
export async function loadIntentDetail(id) {
  const intent = await api(`/_devnet/explorer/intents/${encodeURIComponent(id)}`)
  if (state.intents.selected === id) renderDetail(intent)
}

/** The fee parts an intent was quoted with, in USD. */
function feeTable(fees) {
  const rows = [
    ['gas', fees.gasUsd],
    ['bridge', fees.bridgeUsd],
    ['protocol', fees.protocolUsd],
    ['swap', fees.swapUsd],
    ['settlement', fees.settlementUsd],
  ]
  const gas = Object.entries(fees.gasPricesWei)
    .map(([chainId, wei]) => `${esc(chainName(Number(chainId)))} ${esc(Number(wei) / 1e9)} gwei`)
    .join(', ')
  return `<table class="fees" id="intent-fees"><tbody>${rows
    .map(([name, value]) => `<tr data-fee="${name}"><th>${name}</th><td>${usd(value)}</td></tr>`)
    .join('')}<tr class="total"><th>total</th><td>${usd(fees.totalUsd)}</td></tr></tbody></table>
    <p class="hint">As quoted: at ${gas || 'the signed gas prices'}${fees.sponsored ? '; some parts paid by a sponsor' : ''}.</p>`
}

function renderDetail(i) {
  const steps = i.timeline
    .map((s) => {
      const cls = STEP_CLASS[s.status] ?? (s.step === 'submitted' ? 'done' : 'wait')
      const facts = [
        s.at !== null ? time(s.at) : '',
        s.chainId !== null ? esc(chainName(s.chainId)) : '',
        s.transactionHash ? `tx ${txLink(s.chainId, s.transactionHash)}` : '',
        s.gasUsed ? `gas <span class="mono">${esc(Number(s.gasUsed).toLocaleString('en-US'))}</span>` : '',
      ].filter(Boolean)
      return `<li class="${cls}" data-step="${esc(s.step)}"><span class="step">${esc(s.step)}</span>${badge(s.status)}
        <div class="facts">${facts.join(' · ')}</div>${s.reason ? `<div class="reason">${esc(s.reason)}</div>` : ''}</li>`
    })
    .join('')
  $('intent-detail').innerHTML = `
    <button type="button" class="link close-detail" id="close-detail">Close ✕</button>
    <h3>${esc(i.intentId ?? `#${i.id}`)}</h3>
    <dl>
      <dt>status</dt><dd class="detail-status">${badge(i.status)}</dd>
      ${i.intentId ? `<dt>intentId</dt><dd class="mono">${esc(i.intentId)}</dd>` : ''}
      <dt>id</dt><dd class="mono">${esc(i.id)}</dd>
      <dt>version</dt><dd>${esc(i.version)}</dd>
      <dt>account</dt><dd class="mono">${esc(i.account)}</dd>
      <dt>recipient</dt><dd class="mono">${esc(i.recipient)}</dd>
      <dt>gives</dt><dd>${i.inputs.map((a) => `${amount(a)} on ${esc(chainName(a.chainId))}`).join('<br>')}</dd>
      <dt>gets</dt><dd>${i.outputs.map((a) => `${amount(a)} on ${esc(chainName(a.chainId))}`).join('<br>')}</dd>
      <dt>nonce</dt><dd class="mono">${esc(i.nonce)}</dd>
      <dt>fill deadline</dt><dd>${time(i.fillDeadline)}</dd>
    </dl>
    <h3>Fees</h3>
    ${feeTable(i.fees)}
    <h3>Timeline</h3>
    <ol class="timeline" id="timeline">${steps}</ol>
    <details><summary>Signatures</summary>
      <div class="args">origin:\n${i.signatures.origin.map(esc).join('\n')}\n\ndestination:\n${esc(i.signatures.destination)}</div>
    </details>`
  $('intents-split').classList.add('has-detail')
}

/** Wires the intents tab's controls. */
export function initIntents() {
  $('intents-body').addEventListener('click', (event) => {
    if (event.target.closest('a.tx')) return
    const row = event.target.closest('tr[data-intent-id]')
    if (!row) return
    state.intents.selected = row.dataset.intentId
    for (const r of document.querySelectorAll('#intents-body tr')) r.classList.toggle('selected', r === row)
    loadIntentDetail(row.dataset.intentId).catch(report)
  })
  $('intent-detail').addEventListener('click', (event) => {
    if (!event.target.closest('#close-detail')) return
    state.intents.selected = null
    $('intents-split').classList.remove('has-detail')
    $('intent-detail').innerHTML = '<p class="hint">Select an intent to see its timeline and fees.</p>'
    for (const r of document.querySelectorAll('#intents-body tr')) r.classList.remove('selected')
  })
  $('intents-older').addEventListener('click', () => {
    const s = state.intents
    if (!s.nextCursor) return
    s.cursors[s.page + 1] = s.nextCursor
    s.page += 1
    loadIntents().catch(report)
  })
  $('intents-newer').addEventListener('click', () => {
    const s = state.intents
    if (s.page === 0) return
    s.page -= 1
    loadIntents().catch(report)
  })
  $('intent-search').addEventListener('submit', (event) => {
    event.preventDefault()
    const text = $('intent-search-input').value.trim()
    state.intents.search = text || null
    $('intent-search-clear').hidden = !text
    if (!text) toast('Showing every intent.')
    loadIntents().catch(report)
  })
  $('intent-search-clear').addEventListener('click', () => {
    $('intent-search-input').value = ''
    state.intents.search = null
    $('intent-search-clear').hidden = true
    loadIntents().catch(report)
  })
}
