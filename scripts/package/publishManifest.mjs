// The package.json that is packed and published has no `prepare` script (the idea of pinst, written
// here because it is a dozen lines). In a checkout `prepare` builds dist/ at `npm install`; in the
// tarball it would never run (npm runs `prepare` only for directory and git installs) but npm 11
// still lists it among the "install scripts not yet covered by allowScripts" of every install.
//
//   node scripts/package/publishManifest.mjs strip     # at prepack: keep package.json aside, drop prepare
//   node scripts/package/publishManifest.mjs restore   # after packing or publishing: put it back
//
// `npm pack` restores at postpack. `npm publish` reads the manifest it sends to the registry after
// postpack, so there the restore waits for postpublish (and for a failed publish, the next strip or
// any restore puts the kept file back).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '../..')
const manifest = join(root, 'package.json')
const kept = join(root, 'dist/package.json.prepack')
const [action] = process.argv.slice(2)

const restore = () => {
  if (existsSync(kept)) renameSync(kept, manifest)
}

if (action === 'strip') {
  restore()
  const text = readFileSync(manifest, 'utf8')
  writeFileSync(kept, text)
  const parsed = JSON.parse(text)
  delete parsed.scripts.prepare
  writeFileSync(manifest, `${JSON.stringify(parsed, null, 2)}\n`)
} else if (action === 'restore') {
  // postpack of `npm publish` is too early (see above).
  if (process.env.npm_command === 'publish' && process.env.npm_lifecycle_event === 'postpack') process.exit(0)
  restore()
} else {
  console.error('usage: publishManifest.mjs strip|restore')
  process.exit(2)
}
