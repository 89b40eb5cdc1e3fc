import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/infrastructure/db/connect.js';
import { usingPostgres } from '../helpers/database.js';
import { createScratchPostgresDatabase } from '../helpers/scratch-postgres.js';
import { postDonation, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { donationBody } from '../helpers/test-app.js';

/**
 * kill -9 three times under 50 writing clients. Every donation the service acknowledged (200) is still there
 * afterwards (docs/decisions/0025-stateless-instances-and-graceful-shutdown.md), and replaying every request —
 * acknowledged or not — creates nothing the first try did not (docs/decisions/0012-idempotent-retries.md).
 */

const CLIENTS = 50;
const KILLS = 3;
const WRITE_MS = 2_000;

const children: ChildProcess[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Sent {
  body: ReturnType<typeof donationBody>;
  reference?: string;
}

/** One partner's writers: each sends donations one after another until told to stop, whatever the answers. */
function writers(base: () => string, credentials: { clientId: string; clientSecret: string }) {
  const sent: Sent[] = [];
  let running = true;
  const post = (body: object, timeoutMs = 5_000) => postDonation(base(), credentials, body, timeoutMs);
  // Like a partner: a request without an answer is retried as is (same transaction.id) until one comes.
  const loop = async () => {
    while (running) {
      const entry: Sent = { body: donationBody() };
      sent.push(entry);
      while (entry.reference === undefined && running) {
        try {
          const response = await post(entry.body);
          if (response.status === 200) entry.reference = (await response.json()).data.items.donationReferenceId;
          else await response.body?.cancel();
        } catch {
          // Killed under us, or not back yet: nothing was acknowledged.
        }
        if (entry.reference === undefined) await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };
  const loops = Array.from({ length: CLIENTS }, loop);
  return { sent, post, stop: () => ((running = false), Promise.all(loops)) };
}

async function durabilityUnderKills(env: Record<string, string>, countDonations: () => Promise<number>) {
  const port = await freePort();
  env = { ...env, QUOTA_DEFAULT_LIMIT: '100000000' };
  let server: ServerProcess = startServerProcess({ ...env, PORT: String(port) }, children);
  const { banner, base } = await server.ready;
  const [, clientId, clientSecret] = /client_id=(\S+)\s+client_secret=(\S+)/.exec(banner)!;
  const load = writers(() => base, { clientId: clientId!, clientSecret: clientSecret! });

  for (let kill = 0; kill < KILLS; kill++) {
    await new Promise((resolve) => setTimeout(resolve, WRITE_MS));
    await server.kill('SIGKILL');
    server = startServerProcess({ ...env, PORT: String(port) }, children);
    const { ms } = await server.ready;
    console.log(`kill ${kill + 1}: ${load.sent.length} sent so far; restarted in ${ms} ms`);
  }
  await new Promise((resolve) => setTimeout(resolve, WRITE_MS));
  await load.stop();

  const acknowledged = load.sent.filter((s) => s.reference !== undefined);
  expect(acknowledged.length).toBeGreaterThan(CLIENTS);
  // Every request again, acknowledged or not: the acknowledged ones answer with their first reference.
  const replays: { reference?: string; replayed?: string; status: number }[] = [];
  for (let i = 0; i < load.sent.length; i += CLIENTS) {
    const slice = load.sent.slice(i, i + CLIENTS);
    replays.push(
      ...(await Promise.all(
        slice.map(async ({ body, reference }) => {
          const response = await load.post(body, 60_000);
          const replayed = response.status === 200 ? (await response.json()).data.items.donationReferenceId : undefined;
          return { reference, replayed, status: response.status };
        }),
      )),
    );
  }
  expect(replays.filter((r) => r.status !== 200)).toEqual([]);
  expect(replays.filter((r) => r.reference !== undefined && r.reference !== r.replayed)).toEqual([]);
  expect(await server.kill('SIGTERM')).toBe(0);

  // Exactly one row per request sent: nothing acknowledged was lost, no replay created a second one.
  expect(await countDonations()).toBe(load.sent.length);
  console.log(
    `kill -9 ×${KILLS} under ${CLIENTS} writers: ${load.sent.length} sent, ${acknowledged.length} acknowledged, ` +
      `0 lost, ${load.sent.length} rows after replaying all`,
  );
}

async function countRows(database: Awaited<ReturnType<typeof connectDatabase>>) {
  try {
    const row = await database.db
      .selectFrom('donations')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await database.close();
  }
}

describe('kill -9 three times under 50 writing clients', () => {
  // Embedded only: the run with TEST_DATABASE_URL covers PostgreSQL, the run without it the embedded database.
  it.skipIf(usingPostgres())(
    'embedded database: no acknowledged donation lost, replays create nothing new',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'fx-kill9-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      await durabilityUnderKills({ DATABASE_URL: '', DATA_DIR: dataDir }, async () =>
        countRows(await connectDatabase({ dataDir })),
      );
    },
    600_000,
  );

  it.runIf(usingPostgres())(
    'PostgreSQL: no acknowledged donation lost, replays create nothing new',
    async () => {
      const scratch = await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL!);
      cleanups.push(() => scratch.drop());
      await durabilityUnderKills({ DATABASE_URL: scratch.url }, async () =>
        countRows(await connectDatabase({ databaseUrl: scratch.url, poolMax: 2 })),
      );
    },
    240_000,
  );
});
