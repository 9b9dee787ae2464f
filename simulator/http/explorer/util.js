// Helpers of the explorer's views: escaping, short forms, times, amounts, badges, links, toasts.
import { state } from './state.js'

/** The element of an id. */
export const $ = (id) => document.getElementById(id)

/** Text escaped for HTML. */
export const esc = (value) => String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Text escaped for HTML, with `code spans` shown as code (fault descriptions, messages). */
export const prose = (value) => esc(value).replace(/`([^`]+)`/g, '<code>$1</code>')

/** A hex string shortened to its head and tail. */
export const short = (hex, head = 6, tail = 4) =>
  !hex ? '' : hex.length <= head + tail + 2 ? hex : `${hex.slice(0, head + 2)}…${hex.slice(-tail)}`

/** A chain's name from the manifest. */
export const chainName = (id) => state.manifest?.chains.find((c) => c.chainId === id)?.name ?? `chain ${id}`

const pad = (n) => String(n).padStart(2, '0')

/** A devnet-clock time (unix seconds), as UTC. */
export function time(seconds) {
  if (seconds === null || seconds === undefined) return '<span class="muted">—</span>'
  const d = new Date(seconds * 1000)
  return `<span class="mono" title="${esc(d.toISOString())} (devnet clock)">${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}</span>`
}

/** An ISO time, as {@link time} shows it. */
export const isoTime = (iso) =>
  iso ? time(Math.floor(Date.parse(iso) / 1000)) : '<span class="muted">—</span>'

/** Now on the devnet clock (unix seconds). */
export const devnetNow = () => Math.floor(Date.now() / 1000) + state.clockOffset

/** A token amount in its decimals, with its symbol. */
export function amount(a) {
  const raw = BigInt(a.amount)
  let text = raw.toString()
  if (a.decimals) {
    const base = 10n ** BigInt(a.decimals)
    const frac = (raw % base).toString().padStart(a.decimals, '0').replace(/0+$/, '')
    text = `${raw / base}${frac ? `.${frac}` : ''}`
  }
  return `${esc(text)} ${esc(a.symbol ?? short(a.token))}`
}

/** A US dollar amount, to the hundredth of a cent (— when unknown). */
export const usd = (value) =>
  value === null || value === undefined ? '<span class="muted">—</span>' : `$${esc(value.toFixed(4))}`

/** A status badge. */
export const badge = (status) => `<span class="badge ${esc(status)}">${esc(status)}</span>`

/** A link to a transaction (the chains tab decodes it). */
export const txLink = (chainId, hash) =>
  hash
    ? `<a class="mono tx" href="#chains" data-chain="${esc(chainId)}" data-hash="${esc(hash)}" title="${esc(hash)}">${esc(short(hash))}</a>`
    : '<span class="muted">—</span>'

let toastTimer
/** A short message at the bottom of the page. */
export function toast(text) {
  const el = $('toast')
  el.textContent = text
  el.classList.add('show')
  clearTimeout(toastTimer)
  toastTimer = setTimeout(() => el.classList.remove('show'), 2500)
}

/** `fn` called once calls stop for `ms`. */
export function debounce(fn, ms) {
  let timer
  return (...args) => {
    clearTimeout(timer)
    timer = setTimeout(() => fn(...args), ms)
  }
}
