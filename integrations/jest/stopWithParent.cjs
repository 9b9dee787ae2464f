// Preloaded (node --require) into the devnet process globalSetup.cjs starts. Its stdin is a pipe
// from Jest's process, which closes when that process ends, however it ends (a teardown that
// never ran, SIGTERM, SIGKILL, a crash): then the devnet stops as on SIGTERM, and the CLI stops
// its Anvils before it exits. Nothing is read or written on the pipe otherwise.
const { isMainThread } = require('node:worker_threads')

if (isMainThread && !process.stdin.isTTY) {
  const stop = () => process.kill(process.pid, 'SIGTERM')
  process.stdin.once('end', stop)
  process.stdin.once('error', stop)
  process.stdin.resume()
  // It must not keep the devnet alive once the CLI has stopped.
  process.stdin.unref?.()
}
