import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { productionLaunch } from '../../scripts/production-launch.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('how production starts the service', () => {
  it("reads start:prod's variables, node flags and entry point, which npm start runs", () => {
    const launch = productionLaunch(repoRoot);
    expect(launch).toEqual({
      env: { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=32768' },
      nodeArgs: ['--v8-pool-size=1', '--max-semi-space-size=8'],
      script: 'dist/server.js',
    });
    const { scripts } = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toContain('npm run start:prod');
  });

  it("the image's CMD starts exactly what start:prod starts", () => {
    const dockerfile = readFileSync(`${repoRoot}/Dockerfile`, 'utf8');
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(cmd).toBeDefined();
    const launch = productionLaunch(repoRoot);
    expect(JSON.parse(cmd!)).toEqual(['node', ...launch.nodeArgs, launch.script]);
    // The image's ENV sets start:prod's variables (one per line of its ENV instruction).
    for (const [name, value] of Object.entries(launch.env)) expect(dockerfile).toContain(` ${name}=${value} `);
  });
});
