#!/usr/bin/env node
// Fails when an installed package would not run on the Node versions this project promises (package.json
// "engines"): npm only warns (EBADENGINE) and installs it anyway, and a package that needs a newer Node may crash
// at run time. Checked in `npm run lint`, so a dependency bump that needs a newer Node is caught at once.
//
// Two rules: every installed package accepts the Node running this check (what npm's warning checks), and every
// production package accepts the lowest Node the project declares (the image and partners' machines may run it).
import { readFileSync } from 'node:fs';
import semver from 'semver';

const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const floor = semver.minVersion(root.engines.node).version;
const running = process.versions.node;

const problems = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  if (path === '' || !path.includes('node_modules/')) continue;
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(new URL(`../${path}/package.json`, import.meta.url), 'utf8'));
  } catch {
    continue; // an optional package for another platform, not installed here
  }
  const wanted = manifest.engines?.node;
  if (typeof wanted !== 'string') continue;
  const name = `${manifest.name}@${manifest.version}`;
  if (!semver.satisfies(running, wanted, { includePrerelease: true }))
    problems.push(`${name} requires Node ${wanted}; this is Node ${running}`);
  else if (!entry.dev && !semver.satisfies(floor, wanted, { includePrerelease: true }))
    problems.push(`${name} (production) requires Node ${wanted}; package.json promises ${root.engines.node}`);
}

if (problems.length > 0) {
  console.error(`Packages that do not run on the Node versions this project supports:\n  ${problems.join('\n  ')}`);
  console.error('Pin a version whose engines accept them (npm view <package>@<version> engines), or override it.');
  process.exit(1);
}
console.log(`engines: every package accepts Node ${running}, production packages Node ${floor}`);
