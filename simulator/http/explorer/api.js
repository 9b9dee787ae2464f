// Calls to the service: keyed with the tab's API key; a 401 asks for the key again.
import { state } from './state.js'
import { $, toast } from './util.js'

/** Asks for the API key (a dialog), with why. */
export function askForKey(message = '') {
  const dialog = $('key-dialog')
  $('key-error').textContent = message
  $('key-input').value = state.key ?? ''
  if (!dialog.open) dialog.showModal()
}

/** The service refused the key. */
export class Unauthorized extends Error {}

/** One call to the service, keyed; a 401 asks for the key again. */
export async function api(path, options = {}) {
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
  if (!response.ok) {
    const error = new Error(body?.message ?? body?.error?.message ?? `${response.status} on ${path}`)
    error.status = response.status
    throw error
  }
  return body
}

/** A keyed POST with a JSON body. */
export const post = (path, body) => api(path, { method: 'POST', body: JSON.stringify(body ?? {}) })

/** Shows an error (a toast); a refused key already asked again. */
export function report(error) {
  if (error instanceof Unauthorized) return
  toast(error.message)
}
