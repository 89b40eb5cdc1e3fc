import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ASSIGNMENT = /^([A-Z_][A-Z0-9_]*)=(\S*)$/;

export interface ProductionLaunch {
  /** Variables start:prod sets before node (NAME=value words in front of it). */
  env: Record<string, string>;
  nodeArgs: string[];
  script: string;
}

/**
 * How production starts the service: package.json's `start:prod` ("[NAME=value…] node [flags…] dist/server.js"),
 * which `npm start` runs and the Dockerfile's ENV and CMD repeat. The bench and the compiled-build smoke test start
 * node with exactly these variables and arguments themselves, so that the pid they watch and signal is the
 * service's (npm would put a shell between, which neither forwards SIGTERM nor reports the service's memory).
 */
export function productionLaunch(appDir: string): ProductionLaunch {
  const { scripts } = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = (scripts['start:prod'] ?? '').trim().split(/\s+/);
  const env: Record<string, string> = {};
  let assignment: RegExpExecArray | null;
  while ((assignment = ASSIGNMENT.exec(words[0] ?? ''))) {
    env[assignment[1]!] = assignment[2]!;
    words.shift();
  }
  const [node, ...rest] = words;
  const script = rest.pop();
  if (node !== 'node' || !script?.endsWith('.js'))
    throw new Error('start:prod is not "[NAME=value…] node [flags…] <file>.js"');
  return { env, nodeArgs: rest, script };
}
