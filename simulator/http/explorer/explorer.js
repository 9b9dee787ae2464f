// The devnet explorer: plain JS modules, no build, no dependencies. Every data call goes to this
// origin with the API key (x-api-key) kept in the tab's session storage; live updates come from
// GET /_devnet/events (live.js). Each tab is a module: intents, quotes, deposits, chains, controls.
import { askForKey, report } from './api.js'
import { initChains, loadChains, loadManifest, refreshClock, showTransaction } from './chains.js'
import { initControls, loadControls, loadFaultBanner } from './controls.js'
import { initDeposits, loadDeposits } from './deposits.js'
import { initIntents, loadIntents } from './intents.js'
import { listen } from './live.js'
import { initQuotes, loadQuotes, renderQuotes } from './quotes.js'
import { KEY_STORAGE, state } from './state.js'
import { $, devnetNow } from './util.js'

const TABS = {
  intents: loadIntents,
  quotes: loadQuotes,
  deposits: loadDeposits,
  chains: loadChains,
  controls: loadControls,
}

function showTab(tab) {
  state.tab = tab
  for (const button of document.querySelectorAll('#tabs button'))
    button.setAttribute('aria-selected', String(button.dataset.tab === tab))
  for (const panel of document.querySelectorAll('.tab')) panel.hidden = panel.dataset.panel !== tab
  if (location.hash !== `#${tab}`) history.replaceState(null, '', `#${tab}`)
  TABS[state.tab]?.().catch(report)
}

async function start() {
  try {
    await loadManifest()
    await refreshClock()
  } catch (error) {
    report(error)
    return
  }
  listen()
  loadFaultBanner().catch(report)
  showTab(state.tab)
}

$('key-form').addEventListener('submit', () => {
  const key = $('key-input').value.trim()
  if (!key) return
  state.key = key
  sessionStorage.setItem(KEY_STORAGE, key)
  start()
})
$('change-key').addEventListener('click', () => askForKey())
for (const button of document.querySelectorAll('#tabs button'))
  button.addEventListener('click', () => showTab(button.dataset.tab))
// A transaction link anywhere opens it decoded on the chains tab; the banner's link opens a tab.
document.addEventListener('click', (event) => {
  const tabLink = event.target.closest('a[data-tab]')
  if (tabLink) {
    event.preventDefault()
    return showTab(tabLink.dataset.tab)
  }
  const link = event.target.closest('a.tx')
  if (!link?.dataset.hash) return
  event.preventDefault()
  showTab('chains')
  showTransaction(Number(link.dataset.chain), link.dataset.hash)
})
initIntents()
initQuotes()
initDeposits()
initChains()
initControls()

setInterval(() => {
  $('clock').textContent = new Date(devnetNow() * 1000).toISOString().replace('T', ' ').slice(0, 19)
  if (state.key && state.tab === 'quotes') renderQuotes()
}, 1000)
// Views without a live feed of their own refresh while shown; the fault banner on every tab.
setInterval(() => {
  if (!state.key || document.hidden) return
  if (state.tab === 'quotes') loadQuotes().catch(report)
  if (state.tab === 'chains') loadChains().catch(report)
  loadFaultBanner().catch(report)
}, 2000)

state.key =
  sessionStorage.getItem(KEY_STORAGE) ||
  document.querySelector('meta[name="devnet-default-key"]')?.content ||
  null
if (state.key) sessionStorage.setItem(KEY_STORAGE, state.key)
const initial = location.hash.slice(1)
if (initial in TABS) state.tab = initial
if (state.key) start()
else askForKey()
