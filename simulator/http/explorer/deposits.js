// The deposits tab: this key's deposits and webhook events, each with its delivery attempts.
import { api, post, report } from './api.js'
import { $, badge, chainName, esc, isoTime, short, toast, txLink } from './util.js'

/** Loads the deposits and webhook events. */
export async function loadDeposits() {
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

/** Wires the resend buttons. */
export function initDeposits() {
  $('webhooks-body').addEventListener('click', (event) => {
    const button = event.target.closest('button.resend')
    if (!button) return
    button.disabled = true
    post(`/deposit-processor/webhooks/events/${encodeURIComponent(button.dataset.eventId)}/resend`)
      .then((e) => toast(`Resent ${e.eventId}: ${e.status}`))
      .then(loadDeposits)
      .catch(report)
  })
}
