// The chains tab: each chain's head and contracts, the funded accounts, and decoded transactions.
import { api, Unauthorized } from './api.js'
import { state } from './state.js'
import { $, badge, chainName, esc, time } from './util.js'

/** Loads the manifest (chains, contracts, accounts). */
export async function loadManifest() {
  state.manifest = await api('/_devnet/manifest')
  $('tx-chain').innerHTML = state.manifest.chains
    .map((c) => `<option value="${c.chainId}">${esc(c.name)} (${c.chainId})</option>`)
    .join('')
}

/** Reads the devnet clock (the chains' status carries it). */
export async function refreshClock() {
  const status = await api('/_devnet/explorer/chains')
  state.clockOffset = status.now - Math.floor(Date.now() / 1000)
}

/** Loads every chain's status and the funded accounts. */
export async function loadChains() {
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
      const gas = m.service.gasPrices?.[c.chainId]
      return `<div class="card" data-chain-id="${c.chainId}"><h3>${esc(c.name)} <small>${c.chainId}</small> <span class="badge ${c.up ? 'success' : 'failed'}">${c.up ? 'up' : 'down'}</span></h3>
        <div class="big">#${esc(c.blockNumber ?? '—')}</div>
        <div class="facts">block time ${time(c.blockTimestamp)}${gas ? ` · quotes charge ${esc(gas)} gwei` : ''}</div>
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

/** Decodes and shows one transaction. */
export async function showTransaction(chainId, hash) {
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

/** Wires the decode form. */
export function initChains() {
  $('tx-form').addEventListener('submit', (event) => {
    event.preventDefault()
    const hash = $('tx-hash').value.trim()
    if (hash) showTransaction(Number($('tx-chain').value), hash)
  })
}
