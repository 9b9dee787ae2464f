import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll } from 'vitest'
import type { HttpConfig } from '../types'
import { headers, routeRequest, testApp } from './fixtures'

/**
 * A test app (`testApp(config)`) built in the calling file's (or describe's) beforeAll and closed
 * in its afterAll: `request` injects into it, `route` posts a route request (by default a valid
 * one) to /intents/route in a version, with extra headers.
 */
export function useTestApp(config: Partial<HttpConfig> = {}) {
  let t: Awaited<ReturnType<typeof testApp>>
  beforeAll(async () => {
    t = await testApp(config)
  })
  afterAll(() => t.app.close())
  const request = (options: InjectOptions) => t.request(options)
  const route = (
    version: string | undefined,
    payload: unknown = routeRequest(),
    extra: Record<string, string> = {},
  ) =>
    request({
      method: 'POST',
      url: '/intents/route',
      headers: { ...headers(version), ...extra },
      payload: payload as object,
    })
  return { request, route }
}
