import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDataDirectory } from '../../src/infrastructure/db/data-dir-lock.js';

const dataDir = mkdtempSync(join(tmpdir(), 'fx-restart-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the real server on the embedded database; resolves with the ms it took to print its banner. */
function startServer() {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<{ ms: number; base: string }>((resolve, reject) => {
    const timer = setInterval(() => {
      const base = /on (http:\/\/\S+) —/.exec(stdout)?.[1];
      if (base && stdout.includes('OpenAPI:')) {
        clearInterval(timer);
        resolve({ ms: Date.now() - started, base });
      }
    }, 20);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code}: ${stderr}`));
    });
  });
  return { child, ready, exited, stderr: () => stderr };
}

/** A child process that takes the data directory lock and holds it until killed. */
async function lockHolder(dir: string) {
  const script = `import { lockDataDirectory } from './src/infrastructure/db/data-dir-lock.ts';
    await lockDataDirectory(${JSON.stringify(dir)}); console.log('LOCKED'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (c: Buffer) => c.toString().includes('LOCKED') && resolve()),
  );
  return child;
}

describe('embedded database lock (issue 11)', () => {
  it('refuses a second process while the owner lives, and takes over at once when it was killed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fx-lock-'));
    try {
      const holder = await lockHolder(dir);
      await expect(lockDataDirectory(dir)).rejects.toThrow(/already in use by another process/);
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
      const started = Date.now();
      const release = await lockDataDirectory(dir);
      // The stale timeout is 60 s; the dead owner's pid is what lets us in at once.
      expect(Date.now() - started).toBeLessThan(1000);
      await release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('embedded database: restart after kill -9 (issue 11)', () => {
  it('a restart right after kill -9 serves without waiting for the lock to go stale', async () => {
    const first = startServer();
    await first.ready;
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startServer();
    const { ms, base } = await second.ready;
    const ping = await fetch(`${base}/ping`).then((r) => r.status);
    // The banner comes after listen; /ping without headers answers 400, proving the server answers.
    expect(ping).toBe(400);
    // Start-up itself (PGlite, tsx) is several seconds on a loaded 2-core machine; the figure is reported, and
    // the lock's share of it is held to < 1 s by the test above.
    console.log(`restart after kill -9 answered after ${ms} ms`);
    expect(ms).toBeLessThan(30_000);

    const third = startServer();
    third.ready.catch(() => undefined);
    expect(await third.exited).toBe(1);
    expect(third.stderr()).toMatch(/already in use by another process/);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 60_000);
});
