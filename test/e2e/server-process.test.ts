import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/database.js';

const dataDir = mkdtempSync(join(tmpdir(), 'fx-server-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `src/server.ts` through tsx, as `npm run dev` does, on the embedded database in `dataDir`. */
function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      if (/\n\n$/.test(stdout) && stdout.includes('OpenAPI:')) {
        clearInterval(timer);
        resolve(stdout);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code}: ${stderr}`));
    });
  });
  return { child, ready, exited, output: () => ({ stdout, stderr }) };
}

describe.skipIf(usingPostgres())('the service as a process (README command 1)', () => {
  let first: ReturnType<typeof startServer>;

  it('starts on the embedded database, loads demo data and prints a curl line that works', async () => {
    first = startServer();
    const banner = await first.ready;
    expect(banner).toContain('Sandbox demo data loaded');
    const curl = banner.slice(banner.indexOf('  curl ')).trim();
    const answer = JSON.parse(execFileSync('bash', ['-c', curl], { encoding: 'utf8' }));
    expect(answer).toMatchObject({
      method: '/fundraisers',
      data: { items: { fundraiserId: '10000001', status: 'Enrollment Validated' } },
    });
  });

  it('refuses a second process on the same data directory with a clear message', async () => {
    const second = startServer();
    second.ready.catch(() => undefined);
    expect(await second.exited).toBe(1);
    expect(second.output().stderr).toMatch(/already in use by another process/);
  });

  it('stops gracefully on SIGTERM, releasing the directory for the next start', async () => {
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const again = startServer();
    const banner = await again.ready;
    expect(banner).toContain('This database already has partners, so no demo data was loaded');
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });
});
