/**
 * A stub service in its own process (the 413 matrix: a client in the same process shares the
 * server's event loop and cannot race it). Prints its base URL on stdout, stops on SIGTERM.
 *
 *   node --import tsx simulator/http/testing/serveStub.ts
 */
import { startService } from '../startService'
import { stubServices } from './stubServices'

const service = await startService({ port: 0, services: stubServices() })
process.stdout.write(`${service.baseUrl}\n`)
process.once('SIGTERM', () => void service.close().then(() => process.exit(0)))
