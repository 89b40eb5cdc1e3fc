#!/usr/bin/env node
// Adds to package-lock.json the platform-specific optional packages that `npm install` left out, so that `npm ci`
// accepts the lockfile (CI installs with `npm ci`).
//
// Why they are missing: the registry our machines use serves the Linux x64/arm64 builds of rollup's and oxc-parser's
// native bindings but answers 404 for the other platforms' (darwin, win32, musl, …). `npm install` then leaves
// those out of the lockfile, and `npm ci` refuses it ("Missing: @rollup/rollup-darwin-arm64@ from lock file").
// With the public registry `npm install` records them itself and this script finds nothing to add.
//
// What it adds: an entry per missing optional dependency, with its exact version (the parent pins it) and the
// os/cpu/libc its name states (`@rollup/rollup-linux-x64-musl` → linux, x64, musl), without integrity or resolved
// URL. npm skips an entry whose os/cpu/libc do not match the machine, so on our machines these are never fetched;
// on the platform they name, npm fetches them from the registry as any optional package. `npm install` keeps them.
//
// Usage, after any `npm install` that changed the lockfile: `node scripts/complete-lockfile.js` (then commit).
import { readFileSync, writeFileSync } from 'node:fs';

const FILE = new URL('../package-lock.json', import.meta.url);
const OPERATING_SYSTEMS = [
  'aix',
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
];
const CPUS = {
  arm: 'arm',
  arm64: 'arm64',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
  x64: 'x64',
};

/** `binding-linux-arm-musleabihf` → { os: linux, cpu: arm, libc: musl }; null when the name does not say. */
export function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const at = parts.findIndex((part) => OPERATING_SYSTEMS.includes(part));
  const cpu = at < 0 ? undefined : CPUS[parts[at + 1]];
  if (!cpu) return null;
  const os = parts[at];
  const variant = parts.slice(at + 2).join('-');
  const libc = os !== 'linux' ? null : variant.includes('musl') ? 'musl' : variant.includes('gnu') ? 'glibc' : null;
  return { os, cpu, libc };
}

const lock = JSON.parse(readFileSync(FILE, 'utf8'));
const added = [];
const unknown = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (lock.packages[`node_modules/${name}`] || lock.packages[nested]) continue;
    const platform = platformOf(name);
    if (!platform) {
      unknown.push(`${name} (optional dependency of ${path || 'the root'})`);
      continue;
    }
    lock.packages[`node_modules/${name}`] = {
      version,
      cpu: [platform.cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(platform.libc ? { libc: [platform.libc] } : {}),
      optional: true,
      os: [platform.os],
    };
    added.push(`${name}@${version}`);
  }
}
if (unknown.length > 0) {
  console.error(`Not platform packages, so not added (install them with npm):\n  ${unknown.join('\n  ')}`);
  process.exitCode = 1;
}
// npm's own order: the root first, then paths in locale order.
const byPath = ([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'));
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(byPath));
writeFileSync(FILE, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `Added ${added.length}: ${added.join(', ')}` : 'Nothing to add.');
