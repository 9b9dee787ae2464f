import type { Faults } from '../faults/faults'
import type { ConfigStore } from './configStore'
import type { WebhookTarget } from './webhookOutbox'

/**
 * Where a tenant's events go, read at each attempt: its webhookUrl and secret, or undefined
 * without a URL. The `webhooks.*` faults sign with another key, sign without a secret, or drop the signature.
 */
export function resolveWebhookTarget(
  config: ConfigStore,
  faults: Faults,
): (tenantId: string) => WebhookTarget | undefined {
  return (tenantId) => {
    const current = config.config(tenantId)
    if (!current.webhookUrl) return undefined
    let secret = current.webhookSecret
    if (secret && faults.has('webhooks.wrong-secret')) secret = `${secret}-wrong`
    if (!secret && faults.has('webhooks.sign-without-secret')) secret = 'intent-devnet-fault'
    if (faults.has('webhooks.drop-signature')) secret = null
    return { url: current.webhookUrl, secret }
  }
}
