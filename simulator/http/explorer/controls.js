// The controls tab (clock, quote store, snapshots, faults) and the banner shown while a fault is on.
import { api, post, report } from './api.js'
import { refreshClock } from './chains.js'
import { state } from './state.js'
import { $, esc, prose, toast } from './util.js'

function log(line) {
  const el = $('control-log')
  el.textContent = `${new Date().toISOString().slice(11, 19)} ${line}\n${el.textContent}`.slice(0, 4000)
}

/** Shows (or hides) the banner naming every fault that is on. */
export function showFaultBanner(faults) {
  const banner = $('fault-banner')
  banner.hidden = faults.enabled.length === 0
  banner.innerHTML = faults.enabled.length
    ? `<b>Fault${faults.enabled.length > 1 ? 's' : ''} on:</b> ${faults.enabled
        .map((name) => `<span class="mono" title="${esc(faults.known[name] ?? '')}">${esc(name)}</span>`)
        .join(
          ', ',
        )}. The simulator breaks ${faults.enabled.length > 1 ? 'these rules' : 'this rule'} on purpose. <a href="#controls" data-tab="controls">Controls</a>`
    : ''
}

/** Reads the faults and updates the banner (every page shows it). */
export async function loadFaultBanner() {
  showFaultBanner(await api('/_devnet/faults'))
}

/** Loads the faults (with their descriptions) and the snapshots taken. */
export async function loadControls() {
  const faults = await api('/_devnet/faults')
  showFaultBanner(faults)
  const enabled = new Set(faults.enabled)
  $('faults-body').innerHTML = Object.entries(faults.known)
    .map(
      ([name, text]) =>
        `<tr><td><input type="checkbox" class="fault" data-fault="${esc(name)}" ${enabled.has(name) ? 'checked' : ''} aria-label="${esc(name)}"></td><td class="mono">${esc(name)}</td><td class="fault-text">${prose(text)}</td></tr>`,
    )
    .join('')
  $('snapshot-ids').innerHTML = state.snapshots.map((id) => `<option>${esc(id)}</option>`).join('')
}

/** Wires the controls. */
export function initControls() {
  $('faults-body').addEventListener('change', (event) => {
    const box = event.target.closest('input.fault')
    if (!box) return
    const name = box.dataset.fault
    post('/_devnet/faults', box.checked ? { enable: [name] } : { disable: [name] })
      .then((r) => {
        log(`faults: ${r.enabled.join(', ') || 'none'} enabled`)
        return loadFaultBanner()
      })
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
}
