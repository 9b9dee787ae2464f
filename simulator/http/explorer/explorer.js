// The devnet explorer: plain JS, no build, no dependencies. Every data call goes to this origin
// with the API key (x-api-key) kept in the tab's session storage; live updates come from
// GET /_devnet/events, read with fetch (EventSource cannot send the key header).

const KEY_STORAGE = 'intent-devnet.apiKey'
const PAGE_SIZE = 50
const $ = (id) => document.getElementById(id)

const state = {
  key: null,
  tab: 'intents',
  manifest: null,
  clockOffset: 0,
  intents: { cursors: [undefined], page: 0, nextCursor: null, selected: null },
  quotes: { cursors: [undefined], page: 0, nextCursor: null, rows: [] },
  snapshots: [],
  lastSeq: undefined,
}

// ── helpers ────────────────────────────────────────────────────────────────
const esc = (value) => String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
const short = (hex, head = 6, tail = 4) =>
  !hex ? '' : hex.length <= head + tail + 2 ? hex : `${hex.slice(0, head + 2)}…${hex.slice(-tail)}`
const chainName = (id) => state.manifest?.chains.find((c) => c.chainId === id)?.name ?? `chain ${id}`
const pad = (n) => String(n).padStart(2, '0')
/** A devnet-clock time (unix seconds), as UTC. */
function time(seconds) {
  if (seconds === null || seconds === undefined) return '<span class="muted">—</span>'
  const d = new Date(seconds * 1000)
  return `<span class="mono" title="${esc(d.toISOString())} (devnet clock)">${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}</span>`
}
const isoTime = (iso) => (iso ? time(Math.floor(Date.parse(iso) / 1000)) : '<span class="muted">—</span>')
const devnetNow = () => Math.floor(Date.now() / 1000) + state.clockOffset
function amount(a) {
  const raw = BigInt(a.amount)
  let text = raw.toString()
  if (a.decimals) {
    const base = 10n ** BigInt(a.decimals)
    const frac = (raw % base).toString().padStart(a.decimals, '0').replace(/0+$/, '')
    text = `${raw / base}${frac ? `.${frac}` : ''}`
  }
  return `${esc(text)} ${esc(a.symbol ?? short(a.token))}`
}
const badge = (status) => `<span class="badge ${esc(status)}">${esc(status)}</span>`
const txLink = (chainId, hash) =>
  hash
    ? `<a class="mono tx" data-chain="${esc(chainId)}" data-hash="${esc(hash)}" title="${esc(hash)}">${esc(short(hash))}</a>`
    : '<span class="muted">—</span>'
function toast(text) {
  const el = $('toast')
  el.textContent = text
  el.classList.add('show')
  clearTimeout(toast.timer)
  toast.timer = setTimeout(() => el.classList.remove('show'), 2500)
}
function debounce(fn, ms) {
  let timer
  return (...args) => {
    clearTimeout(timer)
    timer = setTimeout(() => fn(...args), ms)
  }
}

// ── the API key ────────────────────────────────────────────────────────────
function askForKey(message = '') {
  const dialog = $('key-dialog')
  $('key-error').textContent = message
  $('key-input').value = state.key ?? ''
  if (!dialog.open) dialog.showModal()
}
$('key-form').addEventListener('submit', () => {
  const key = $('key-input').value.trim()
  if (!key) return
  state.key = key
  sessionStorage.setItem(KEY_STORAGE, key)
  start()
})
$('change-key').addEventListener('click', () => askForKey())

class Unauthorized extends Error {}

/** One call to the service, keyed; a 401 asks for the key again. */
async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    headers: {
      'x-api-key': state.key,
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
  })
  const text = await response.text()
  const body = text ? JSON.parse(text) : undefined
  if (response.status === 401) {
    askForKey('That key was refused (401). Enter the devnet API key.')
    throw new Unauthorized()
  }
  if (!response.ok) throw new Error(body?.message ?? body?.error?.message ?? `${response.status} on ${path}`)
  return body
}
const post = (path, body) => api(path, { method: 'POST', body: JSON.stringify(body ?? {}) })

// ── tabs ───────────────────────────────────────────────────────────────────
for (const button of document.querySelectorAll('#tabs button'))
  button.addEventListener('click', () => showTab(button.dataset.tab))
function showTab(tab) {
  state.tab = tab
  for (const button of document.querySelectorAll('#tabs button'))
    button.setAttribute('aria-selected', String(button.dataset.tab === tab))
  for (const panel of document.querySelectorAll('.tab')) panel.hidden = panel.dataset.panel !== tab
  if (location.hash !== `#${tab}`) history.replaceState(null, '', `#${tab}`)
  refreshTab()
}
function refreshTab() {
  const loaders = {
    intents: loadIntents,
    quotes: loadQuotes,
    deposits: loadDeposits,
    chains: loadChains,
    controls: loadControls,
  }
  loaders[state.tab]?.().catch(report)
}
function report(error) {
  if (error instanceof Unauthorized) return
  console.error(error)
  toast(error.message)
}

// ── intents ────────────────────────────────────────────────────────────────
async function loadIntents() {
  const s = state.intents
  const cursor = s.cursors[s.page]
  const query = new URLSearchParams({ limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) })
  const list = await api(`/_devnet/explorer/intents?${query}`)
  s.nextCursor = list.nextCursor
  $('intents-total').textContent = list.total ? `(${list.total})` : ''
  $('intents-page').textContent = `page ${s.page + 1} of ${Math.max(1, Math.ceil(list.total / PAGE_SIZE))}`
  $('intents-newer').disabled = s.page === 0
  $('intents-older').disabled = !list.nextCursor
  const body = $('intents-body')
  if (list.intents.length === 0) {
    body.innerHTML =
      '<tr class="empty"><td colspan="9">No intents yet. Submit one (POST /intents/route, then submit) and it shows here live.</td></tr>'
    return
  }
  body.innerHTML = list.intents.map(intentRow).join('')
  if (s.selected && list.intents.some((i) => i.id === s.selected)) loadIntentDetail(s.selected).catch(report)
}
function intentRow(i) {
  return `<tr data-intent-id="${esc(i.id)}" class="${i.id === state.intents.selected ? 'selected' : ''}">
    <td class="mono" title="${esc(i.id)}">${esc(short(i.id, 8, 4))}</td>
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
$('intents-body').addEventListener('click', (event) => {
  if (event.target.closest('a.tx')) return
  const row = event.target.closest('tr[data-intent-id]')
  if (!row) return
  state.intents.selected = row.dataset.intentId
  for (const r of document.querySelectorAll('#intents-body tr')) r.classList.toggle('selected', r === row)
  loadIntentDetail(row.dataset.intentId).catch(report)
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

const STEP_CLASS = { COMPLETED: 'done', FAILED: 'bad', EXPIRED: 'bad', QUOTED: 'done' }
async function loadIntentDetail(id) {
  const i = await api(`/_devnet/explorer/intents/${encodeURIComponent(id)}`)
  if (state.intents.selected !== id) return
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
    <h3>${esc(i.id)}</h3>
    <dl>
      <dt>status</dt><dd class="detail-status">${badge(i.status)}</dd>
      ${i.intentId ? `<dt>intentId</dt><dd class="mono">${esc(i.intentId)}</dd>` : ''}
      <dt>version</dt><dd>${esc(i.version)}</dd>
      <dt>account</dt><dd class="mono">${esc(i.account)}</dd>
      <dt>recipient</dt><dd class="mono">${esc(i.recipient)}</dd>
      <dt>gives</dt><dd>${i.inputs.map((a) => `${amount(a)} on ${esc(chainName(a.chainId))}`).join('<br>')}</dd>
      <dt>gets</dt><dd>${i.outputs.map((a) => `${amount(a)} on ${esc(chainName(a.chainId))}`).join('<br>')}</dd>
      <dt>nonce</dt><dd class="mono">${esc(i.nonce)}</dd>
      <dt>fill deadline</dt><dd>${time(i.fillDeadline)}</dd>
    </dl>
    <h3>Timeline</h3>
    <ol class="timeline" id="timeline">${steps}</ol>
    <details><summary>Signatures</summary>
      <div class="args">origin:\n${i.signatures.origin.map(esc).join('\n')}\n\ndestination:\n${esc(i.signatures.destination)}</div>
    </details>`
}

// ── quotes ─────────────────────────────────────────────────────────────────
async function loadQuotes() {
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
function renderQuotes() {
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

// ── deposits and webhooks ──────────────────────────────────────────────────
async function loadDeposits() {
  const [deposits, webhooks] = await Promise.all([
    api('/deposit-processor/deposits?limit=100'),
    api('/deposit-processor/webhooks/events?limit=100'),
  ])
  $('deposits-body').innerHTML =
    deposits.deposits.length === 0
      ? '<tr class="empty"><td colspan="9">No deposits yet: register an account (POST /deposit-processor/register) and send it tokens.</td></tr>'
      : deposits.deposits
          .map(
            (d) => `<tr data-deposit-id="${esc(d.id)}">
      <td class="mono" title="${esc(d.id)}">${esc(short(d.id, 8, 4))}</td>
      <td class="mono" title="${esc(d.account)}">${esc(short(d.account))}</td>
      <td>${esc(chainName(d.chainId))}</td>
      <td>${esc(d.amount)} ${esc(d.symbol ?? short(d.token))}</td>
      <td>${badge(d.status)}</td>
      <td class="mono">${esc(d.errorCode ?? (d.status === 'completed' ? 'accepted' : ''))}</td>
      <td>${esc(d.message ?? '')}</td>
      <td>${txLink(d.chainId, d.transactionHash)}</td>
      <td>${d.bridgeTransactionHash ? txLink(d.target?.chainId, d.bridgeTransactionHash) : '<span class="muted">—</span>'}</td></tr>`,
          )
          .join('')
  $('webhooks-body').innerHTML =
    webhooks.events.length === 0
      ? '<tr class="empty"><td colspan="8">No webhook events yet.</td></tr>'
      : webhooks.events.map(webhookRow).join('')
}
function webhookRow(e) {
  const signed = e.attempts.length === 0 ? '—' : e.attempts.at(-1).signed ? 'signed' : 'unsigned'
  const attempts = e.attempts
    .map(
      (a) =>
        `<li>${isoTime(a.time)} → ${a.statusCode !== undefined ? `<b class="code">${esc(a.statusCode)}</b>` : `<span class="reason">${esc(a.error)}</span>`} <span class="muted">${esc(a.durationMs)} ms${a.signed === false ? ', unsigned' : ''}</span></li>`,
    )
    .join('')
  return `<tr data-event-id="${esc(e.eventId)}">
    <td class="mono" title="${esc(e.eventId)}">${esc(short(e.eventId, 10, 4))}</td>
    <td>${esc(e.type)}${e.payload?.test ? ' <span class="muted">(test)</span>' : ''}</td>
    <td>${isoTime(e.time)}</td>
    <td>${badge(e.status)}</td>
    <td class="signed">${esc(signed)}</td>
    <td class="attempts-cell"><span class="attempt-count">${e.attempts.length}</span> <ol class="attempts">${attempts}</ol></td>
    <td>${isoTime(e.nextAttemptAt)}</td>
    <td><button type="button" class="resend" data-event-id="${esc(e.eventId)}">Resend</button></td></tr>`
}
$('webhooks-body').addEventListener('click', (event) => {
  const button = event.target.closest('button.resend')
  if (!button) return
  button.disabled = true
  post(`/deposit-processor/webhooks/events/${encodeURIComponent(button.dataset.eventId)}/resend`)
    .then((e) => toast(`Resent ${e.eventId}: ${e.status}`))
    .then(loadDeposits)
    .catch(report)
})

// ── chains and transactions ────────────────────────────────────────────────
async function loadChains() {
  const [status] = await Promise.all([
    api('/_devnet/explorer/chains'),
    state.manifest ? null : loadManifest(),
  ])
  state.clockOffset = status.now - Math.floor(Date.now() / 1000)
  const m = state.manifest
  $('chains-cards').innerHTML = status.chains
    .map((c) => {
      const chain = m.chains.find((x) => x.chainId === c.chainId)
      const contracts = Object.entries(chain?.contracts ?? {})
        .map(([name, address]) => `<li>${esc(name)} <span class="mono muted">${esc(address)}</span></li>`)
        .join('')
      const tokens = (chain?.tokens ?? [])
        .map((t) => `<li>${esc(t.symbol)} <span class="mono muted">${esc(t.address)}</span></li>`)
        .join('')
      return `<div class="card" data-chain-id="${c.chainId}"><h3>${esc(c.name)} <small>${c.chainId}</small> <span class="badge ${c.up ? 'success' : 'failed'}">${c.up ? 'up' : 'down'}</span></h3>
        <div class="big">#${esc(c.blockNumber ?? '—')}</div>
        <div class="facts">block time ${time(c.blockTimestamp)}</div>
        <div class="facts mono">${esc(chain?.rpcUrl ?? '')}</div>
        <details><summary>${Object.keys(chain?.contracts ?? {}).length} contracts, ${(chain?.tokens ?? []).length} tokens</summary><ul>${contracts}${tokens}</ul></details></div>`
    })
    .join('')
  $('accounts-body').innerHTML = m.accounts
    .map(
      (a) =>
        `<tr><td>${esc(a.label)}</td><td class="mono">${esc(a.address)}</td><td><details><summary class="muted">show</summary><span class="mono">${esc(a.privateKey)}</span></details></td></tr>`,
    )
    .join('')
}
async function loadManifest() {
  state.manifest = await api('/_devnet/manifest')
  $('tx-chain').innerHTML = state.manifest.chains
    .map((c) => `<option value="${c.chainId}">${esc(c.name)} (${c.chainId})</option>`)
    .join('')
}
async function showTransaction(chainId, hash) {
  $('tx-chain').value = String(chainId)
  $('tx-hash').value = hash
  const view = $('tx-view')
  view.innerHTML = '<p class="hint">Loading…</p>'
  try {
    const tx = await api(`/_devnet/explorer/chains/${chainId}/transactions/${hash}`)
    const call = tx.decoded
      ? `<h3>${esc(tx.decoded.contract)}.${esc(tx.decoded.functionName)}(…)</h3><div class="args">${tx.decoded.args
          .map((a) => `${esc(a.name)} (${esc(a.type)}) = ${esc(JSON.stringify(a.value, null, 2))}`)
          .join('\n')}</div>`
      : `<p class="hint">${tx.contract ? `A call to ${esc(tx.contract)} that its ABI does not decode.` : 'Not a call to one of our contracts.'}</p><div class="args">${esc(tx.input)}</div>`
    view.innerHTML = `<dl class="detail-list">
      <dt>hash</dt><dd class="mono">${esc(tx.hash)}</dd>
      <dt>status</dt><dd>${badge(tx.status)}</dd>
      <dt>chain</dt><dd>${esc(chainName(tx.chainId))}, block ${esc(tx.blockNumber ?? 'pending')}</dd>
      <dt>from</dt><dd class="mono">${esc(tx.from)}</dd>
      <dt>to</dt><dd class="mono">${esc(tx.to ?? '(create)')}${tx.contract ? ` <span class="muted">${esc(tx.contract)}</span>` : ''}</dd>
      <dt>gas used</dt><dd class="mono">${esc(tx.gasUsed ?? '—')}</dd>
      <dt>value</dt><dd class="mono">${esc(tx.value)} wei</dd></dl>${call}`
  } catch (error) {
    if (!(error instanceof Unauthorized)) view.innerHTML = `<p class="reason">${esc(error.message)}</p>`
  }
}
$('tx-form').addEventListener('submit', (event) => {
  event.preventDefault()
  const hash = $('tx-hash').value.trim()
  if (hash) showTransaction(Number($('tx-chain').value), hash)
})
document.addEventListener('click', (event) => {
  const link = event.target.closest('a.tx')
  if (!link || !link.dataset.hash) return
  event.preventDefault()
  showTab('chains')
  showTransaction(Number(link.dataset.chain), link.dataset.hash)
})

// ── controls ───────────────────────────────────────────────────────────────
function log(line) {
  const el = $('control-log')
  el.textContent = `${new Date().toISOString().slice(11, 19)} ${line}\n${el.textContent}`.slice(0, 4000)
}
async function loadControls() {
  const faults = await api('/_devnet/faults')
  const enabled = new Set(faults.enabled)
  $('faults-body').innerHTML = Object.entries(faults.known)
    .map(
      ([name, text]) =>
        `<tr><td><input type="checkbox" class="fault" data-fault="${esc(name)}" ${enabled.has(name) ? 'checked' : ''} aria-label="${esc(name)}"></td><td class="mono">${esc(name)}</td><td>${esc(text)}</td></tr>`,
    )
    .join('')
  $('snapshot-ids').innerHTML = state.snapshots.map((id) => `<option>${esc(id)}</option>`).join('')
}
$('faults-body').addEventListener('change', (event) => {
  const box = event.target.closest('input.fault')
  if (!box) return
  const name = box.dataset.fault
  post('/_devnet/faults', box.checked ? { enable: [name] } : { disable: [name] })
    .then((r) => log(`faults: ${r.enabled.join(', ') || 'none'} enabled`))
    .catch((error) => {
      box.checked = !box.checked
      report(error)
    })
})
$('clock-form').addEventListener('submit', (event) => {
  event.preventDefault()
  const seconds = Number($('clock-seconds').value)
  post('/_devnet/clock/advance', { seconds })
    .then((r) => {
      state.clockOffset = r.now - Math.floor(Date.now() / 1000)
      log(`clock advanced ${seconds} s → ${new Date(r.now * 1000).toISOString()}`)
    })
    .catch(report)
})
$('reset-quotes').addEventListener('click', () =>
  post('/_devnet/quotes/reset')
    .then(() => log('quote store reset'))
    .catch(report),
)
$('snapshot').addEventListener('click', () =>
  post('/_devnet/snapshot')
    .then((r) => {
      state.snapshots.unshift(r.id)
      log(`snapshot ${r.id}`)
      return loadControls()
    })
    .catch(report),
)
$('revert').addEventListener('click', () => {
  const id = $('snapshot-ids').value
  if (!id) return toast('Take a snapshot first.')
  post('/_devnet/revert', { id })
    .then(() => {
      log(`reverted to snapshot ${id}`)
      return refreshClock()
    })
    .catch(report)
})

// ── live updates ───────────────────────────────────────────────────────────
const refreshIntents = debounce(() => loadIntents().catch(report), 30)
const refreshDeposits = debounce(() => loadDeposits().catch(report), 50)
function onEvent(type, event) {
  if (type === 'intent') {
    if (state.tab !== 'intents') return
    if (state.intents.page === 0 || document.querySelector(`tr[data-intent-id="${CSS.escape(event.id)}"]`))
      refreshIntents()
    if (state.intents.selected === event.id) loadIntentDetail(event.id).catch(report)
  } else if (state.tab === 'deposits') refreshDeposits()
}
async function listen(generation) {
  let delay = 500
  while (generation === listen.generation) {
    try {
      const query = state.lastSeq === undefined ? '' : `?after=${state.lastSeq}`
      const response = await fetch(`/_devnet/events${query}`, { headers: { 'x-api-key': state.key } })
      if (response.status === 401) {
        askForKey('That key was refused (401). Enter the devnet API key.')
        return
      }
      if (!response.ok || !response.body) throw new Error(`events: ${response.status}`)
      $('live').className = 'live on'
      $('live').textContent = 'live'
      delay = 500
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      let buffer = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done || generation !== listen.generation) break
        buffer += value
        let end = buffer.indexOf('\n\n')
        while (end >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          end = buffer.indexOf('\n\n')
          const fields = {}
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue
            const colon = line.indexOf(':')
            if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart()
          }
          if (fields.id) state.lastSeq = Number(fields.id)
          if (fields.event && fields.data) onEvent(fields.event, JSON.parse(fields.data))
        }
      }
    } catch (error) {
      console.warn(error)
    }
    $('live').className = 'live off'
    $('live').textContent = 'reconnecting'
    await new Promise((resolve) => setTimeout(resolve, delay))
    delay = Math.min(delay * 2, 5000)
  }
}
listen.generation = 0

async function refreshClock() {
  const status = await api('/_devnet/explorer/chains')
  state.clockOffset = status.now - Math.floor(Date.now() / 1000)
}
setInterval(() => {
  $('clock').textContent = new Date(devnetNow() * 1000).toISOString().replace('T', ' ').slice(0, 19)
  if (state.key && state.tab === 'quotes') renderQuotes()
}, 1000)
// Views without a live feed of their own refresh while shown.
setInterval(() => {
  if (!state.key || document.hidden) return
  if (state.tab === 'quotes') loadQuotes().catch(report)
  if (state.tab === 'chains') loadChains().catch(report)
}, 2000)

async function start() {
  listen.generation += 1
  try {
    await loadManifest()
    await refreshClock()
  } catch (error) {
    report(error)
    return
  }
  listen(listen.generation)
  showTab(state.tab)
}

state.key =
  sessionStorage.getItem(KEY_STORAGE) ||
  document.querySelector('meta[name="devnet-default-key"]')?.content ||
  null
if (state.key) sessionStorage.setItem(KEY_STORAGE, state.key)
const initial = location.hash.slice(1)
if (['intents', 'quotes', 'deposits', 'chains', 'controls'].includes(initial)) state.tab = initial
if (state.key) start()
else askForKey()
