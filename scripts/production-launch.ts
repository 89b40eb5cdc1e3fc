import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How production starts the service: package.json's `start:prod` ("node [flags…] dist/server.js"), which `npm start`
 * runs and the Dockerfile's command repeats. The bench and the compiled-build smoke test start node with exactly
 * these arguments themselves, so that the pid they watch and signal is the service's (npm would put a shell between,
 * which neither forwards SIGTERM nor reports the service's memory).
 */
export function productionLaunch(appDir: string): { nodeArgs: string[]; script: string } {
  const { scripts } = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [node, ...rest] = (scripts['start:prod'] ?? '').trim().split(/\s+/);
  const script = rest.pop();
  if (node !== 'node' || !script?.endsWith('.js')) throw new Error('start:prod is not "node [flags…] <file>.js"');
  return { nodeArgs: rest, script };
}
