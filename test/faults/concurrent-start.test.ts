import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/database.js';
import { createScratchPostgresDatabase } from '../helpers/scratch-postgres.js';
import { startServerProcess } from '../helpers/server-process.js';

const children: ChildProcess[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
});

describe.runIf(usingPostgres())('instances starting together on an empty PostgreSQL database', () => {
  it('three started at once all migrate, agree on one set of demo data and serve', async () => {
    const scratch = await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL!);
    cleanups.push(() => scratch.drop());
    const servers = [1, 2, 3].map(() => startServerProcess({ DATABASE_URL: scratch.url }, children));
    const ready = await Promise.all(servers.map((s) => s.ready));
    const seeded = ready.filter((r) => r.banner.includes('Sandbox demo data loaded'));
    expect(seeded).toHaveLength(1);
    const credentials = /client_id=(\S+)\s+client_secret=(\S+)/.exec(seeded[0]!.banner)!;
    for (const { base } of ready) {
      const answer = await fetch(`${base}/fundraisers?channel=Storefront%20App&id=10000001`, {
        headers: { 'x-correlation-id': randomUUID(), client_id: credentials[1]!, client_secret: credentials[2]! },
      });
      expect(answer.status).toBe(200);
    }
    for (const server of servers) expect(await server.kill('SIGTERM')).toBe(0);
  }, 120_000);
});
