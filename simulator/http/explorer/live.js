// Live updates: GET /_devnet/events read with fetch (EventSource cannot send the key header).
import { askForKey, report } from './api.js'
import { loadDeposits } from './deposits.js'
import { loadIntentDetail, loadIntents } from './intents.js'
import { state } from './state.js'
import { $, debounce } from './util.js'

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

/** Parses the server-sent events of one text block into its fields. */
function fieldsOf(block) {
  const fields = {}
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart()
  }
  return fields
}

let generation = 0

/** Follows the live feed until {@link listen} is called again (a new key), reconnecting with backoff. */
export async function listen() {
  const mine = ++generation
  let delay = 500
  while (mine === generation) {
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
        if (done || mine !== generation) break
        buffer += value
        let end = buffer.indexOf('\n\n')
        while (end >= 0) {
          const fields = fieldsOf(buffer.slice(0, end))
          buffer = buffer.slice(end + 2)
          end = buffer.indexOf('\n\n')
          if (fields.id) state.lastSeq = Number(fields.id)
          if (fields.event && fields.data) onEvent(fields.event, JSON.parse(fields.data))
        }
      }
    } catch {
      // The connection dropped (a restart, a network change): shown as reconnecting, tried again.
    }
    $('live').className = 'live off'
    $('live').textContent = 'reconnecting'
    await new Promise((resolve) => setTimeout(resolve, delay))
    delay = Math.min(delay * 2, 5000)
  }
}
