import { spawnSync } from 'node:child_process'

/**
 * Whether a Docker engine answers here. Tests that need one skip without it (a developer's
 * machine with nothing but npm), unless `INTENT_DEVNET_REQUIRE_DOCKER` is set (CI: `.ci/run`
 * starts an engine and sets it), where a missing engine is an error instead of a skip.
 *
 * @example
 * describe.skipIf(!hasDockerEngine())('the image', () => { ... })
 */
export function hasDockerEngine(): boolean {
  const answers =
    spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'ignore' }).status === 0
  if (!answers && process.env.INTENT_DEVNET_REQUIRE_DOCKER)
    throw new Error('INTENT_DEVNET_REQUIRE_DOCKER is set but no Docker engine answers `docker info`.')
  return answers
}
