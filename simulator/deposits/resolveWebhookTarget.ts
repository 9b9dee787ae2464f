import type { ConfigStore } from './configStore'
import type { WebhookTarget } from './webhookOutbox'

/** Where a tenant's events go, read at each delivery attempt. */
export type ResolveWebhookTarget = (tenantId: string) => WebhookTarget | undefined

/**
 * Where a tenant's events go, read at each attempt: its webhookUrl and secret, or undefined
 * without a URL.
 *
 * @example
 * const target = resolveWebhookTarget(store.config)('tenant')
 */
export function resolveWebhookTarget(config: ConfigStore): ResolveWebhookTarget {
  return (tenantId) => {
    const current = config.config(tenantId)
    if (!current.webhookUrl) return undefined
    return { url: current.webhookUrl, secret: current.webhookSecret }
  }
}
