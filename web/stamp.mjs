// Writes the hash of the dashboard's sources next to the build, so a Go test
// can tell when the committed build is older than its sources. The Go side
// (server/dashboard/stale_test.go) hashes the same files the same way.
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const roots = ['index.html', 'package.json', 'package-lock.json', 'tsconfig.json', 'vite.config.ts', 'stamp.mjs', 'src']

function walk(path, out) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path)) walk(join(path, name), out)
  } else {
    out.push(path)
  }
}

const files = []
for (const r of roots) walk(r, files)
files.sort()
const h = createHash('sha256')
for (const f of files) {
  h.update(f.split('\\').join('/') + '\0')
  h.update(readFileSync(f))
  h.update('\0')
}
writeFileSync('../server/dashboard/source.sha256', h.digest('hex') + '\n')
