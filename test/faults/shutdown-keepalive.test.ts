import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server-process.js';

const CLIENTS = 50;
const dataDir = mkdtempSync(join(tmpdir(), 'fx-shutdown-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function get(agent: http.Agent, base: URL, credentials: { id: string; secret: string }) {
  return new Promise<number>((resolve, reject) => {
    const request = http.get(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path: `${base.pathname}/ping`,
        headers: { 'x-correlation-id': randomUUID(), client_id: credentials.id, client_secret: credentials.secret },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
  });
}

// The server first accepts everything the kernel has queued (readiness DOWN), then closes its listener and answers
// with `Connection: close` (src/shutdown.ts): a listener closed with connections in its accept queue resets them,
// which is what this test caught before (~32 of 50 clients on `read ECONNRESET`).
describe('SIGTERM under keep-alive clients', () => {
  it(`${CLIENTS} clients on keep-alive connections: no reset, no 503; the server exits 0`, async () => {
    const server = startServerProcess({ DATABASE_URL: '', DATA_DIR: dataDir }, children);
    const { base, banner } = await server.ready;
    const [, id, secret] = /client_id=(\S+)\s+client_secret=(\S+)/.exec(banner)!;
    const url = new URL(base);
    const outcomes = { ok: 0, other: 0, refused: 0, resets: [] as string[] };
    let stop = false;
    const answered = Array.from({ length: CLIENTS }, () => 0);
    const client = async (index: number) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (!stop) {
        try {
          const status = await get(agent, url, { id: id!, secret: secret! });
          answered[index] = (answered[index] ?? 0) + 1;
          if (status === 200) outcomes.ok += 1;
          else outcomes.other += 1;
        } catch (err) {
          // A new connection refused once the server stopped listening is how a client learns it is gone.
          if ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED') outcomes.refused += 1;
          else outcomes.resets.push(`${(err as NodeJS.ErrnoException).code}: ${(err as Error).message}`);
          break;
        }
      }
      agent.destroy();
    };
    const running = Array.from({ length: CLIENTS }, (_, index) => client(index));
    // Every client on its keep-alive connection with answers flowing, however slow the machine, before SIGTERM: on
    // a loaded machine a client's first connection can still wait in the accept queue after 100 answers to others,
    // and a client that connects only after SIGTERM is not the keep-alive case under test.
    const deadline = Date.now() + 60_000;
    while (answered.some((n) => n < 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const okBefore = outcomes.ok;
    server.child.kill('SIGTERM');
    const code = await server.exited;
    stop = true;
    await Promise.all(running);
    console.log(`SIGTERM under ${CLIENTS} keep-alive clients: ${JSON.stringify({ ...outcomes, okBefore, code })}`);
    expect(okBefore).toBeGreaterThan(CLIENTS);
    expect(outcomes.resets).toEqual([]);
    expect(outcomes.other).toBe(0);
    expect(code).toBe(0);
  }, 90_000);
});
