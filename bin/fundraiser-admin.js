#!/usr/bin/env node
// The operator CLI. Compiled (dist/cli/main.js, from `npm run build`) where the sources are not shipped, as in the
// container image, or when FUNDRAISER_ADMIN_COMPILED=1 asks for it; otherwise the sources through tsx's loader
// (scoped to this import), so a checkout never runs a stale build.
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// One-shot operator work on a host the service shares, a large statement import above all: V8 keeps the heap near
// what is live instead of letting it grow to twice that before collecting. On the embedded database, whose
// WebAssembly memory shares the process, as near as it can (--optimize-for-size, which costs an import's JavaScript
// about twice the CPU); on a PostgreSQL server, growing by a fifth at a time, for ~40% more memory and ~25% less
// CPU (docs/decisions/0048-embedded-statement-import-memory.md). The database is DATABASE_URL's when it is set.
setFlagsFromString(process.env.DATABASE_URL ? '--heap-growing-percent=20' : '--optimize-for-size');

const compiled = new URL('../dist/cli/main.js', import.meta.url);
const useCompiled =
  process.env.FUNDRAISER_ADMIN_COMPILED === '1' || !existsSync(new URL('../src/cli/main.ts', import.meta.url));

let runCli;
if (useCompiled) {
  if (!existsSync(compiled)) {
    process.stderr.write('fundraiser-admin: dist/cli/main.js is missing; run `npm run build` first.\n');
    process.exit(1);
  }
  ({ runCli } = await import(compiled.href));
} else {
  const { tsImport } = await import('tsx/esm/api');
  ({ runCli } = await tsImport('../src/cli/main.ts', import.meta.url));
}
process.exitCode = await runCli(process.argv.slice(2));
