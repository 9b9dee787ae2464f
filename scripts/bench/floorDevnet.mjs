// The floor of a devnet start (issue 18, scripts/bench/start.ts): the least any Node program
// behind `npm start` can do before `/health` answers, with none of the service. It starts the
// devnet's four Anvils exactly as bin/intent-devnet.js does (same spawner, the baked boot state
// when it is fresh), and once each listens it answers 200 on /health from node:http. What it
// takes is Node's, npm's and Anvil's own time; the rest of a real start is ours.
//
//   node scripts/bench/floorDevnet.mjs --port 8080
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'
import { parseAnvilOutput, spawnEarlyAnvil } from '../../simulator/devnet/anvilProcess.js'
import { freshBootState } from '../../simulator/devnet/bootStateFiles.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const port = Number(process.argv[process.argv.indexOf('--port') + 1] ?? 0)
const baked = freshBootState(root)
const anvils = [1, 10, 8453, 42161].map((chainId) =>
  spawnEarlyAnvil({ chainId, host: '127.0.0.1', loadStatePath: baked?.chains[chainId]?.path }),
)
await Promise.all(
  anvils.map(
    (anvil) =>
      new Promise((resolve, reject) => {
        anvil.child.ref()
        anvil.onChange = () => {
          if (parseAnvilOutput(anvil.output).port) resolve()
          else if (anvil.exited) reject(new Error(`anvil ${anvil.chainId} exited: ${anvil.output}`))
        }
        anvil.onChange()
      }),
  ),
)
const server = createServer((request, response) => {
  response.writeHead(request.url === '/health' ? 200 : 404, { 'content-type': 'application/json' })
  response.end('{"status":"ok"}')
}).listen(port, '127.0.0.1')
const stop = () => {
  server.close()
  for (const anvil of anvils) anvil.child.kill('SIGTERM')
}
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
