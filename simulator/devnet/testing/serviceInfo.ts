/** The service part of a devnet manifest, as the simulator's HTTP service would set it (`devnet.setServiceInfo`). */
export const service = {
  baseUrl: 'http://127.0.0.1:4000',
  apiKey: 'devnet',
  versions: ['2026-01.alps', '2026-04.blanc'],
  defaultVersion: '2026-01.alps',
  strictVersion: false,
  quoteTtlSeconds: 3600,
}
