// After `tsc -p tsconfig.build.json`: the files the compiled service reads from disk at run time, beside the
// modules that read them (migrations beside src/infrastructure/db/migrate.ts, the console's static assets beside
// src/console/plugin.ts). Swagger UI's assets come from node_modules and need nothing here.
import { cpSync, existsSync, rmSync } from 'node:fs';

const ASSETS = ['infrastructure/db/migrations', 'console/static', 'portal/static'];

for (const dir of ASSETS) {
  const target = `dist/${dir}`;
  if (existsSync(target)) rmSync(target, { recursive: true });
  cpSync(`src/${dir}`, target, { recursive: true, filter: (path) => !path.endsWith('.ts') });
}
console.log(`copied ${ASSETS.join(', ')} into dist/`);
