import { DevnetManifest } from '../../spec'

/** The `--chains` file a vendor would write for a target, built here from the simulator's manifest. */
export async function chainsFileOf(target: string, apiKey: string): Promise<object> {
  const response = await fetch(new URL('/_devnet/manifest', target), { headers: { 'x-api-key': apiKey } })
  const manifest = DevnetManifest.parse(await response.json())
  const contracts: Record<string, string> = {}
  const tokens: Record<string, string> = {}
  for (const chain of manifest.chains) {
    for (const [name, address] of Object.entries(chain.contracts)) {
      contracts[`${chain.chainId}.${name}`] = address
      contracts[name] ??= address
    }
    for (const token of chain.tokens) tokens[`${chain.chainId}.${token.symbol}`] = token.address
  }
  return {
    chains: manifest.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })),
    accounts: manifest.accounts.map((a) => a.privateKey),
    contracts,
    tokens,
  }
}
