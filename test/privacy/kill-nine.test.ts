import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { deidentifyDue } from '../../src/services/privacy/deidentify.js';
import { startTestApp } from '../helpers/test-app.js';
import { createDurableDatabase, insertDonations, partnerOf, waitUntil } from '../reconciliation/support.js';
import { SETTINGS } from './support.js';

/**
 * kill -9 of the process de-identifying, in the middle of its walk (docs/privacy.md, "De-identification"): what it
 * committed stays done and counted once; the next run resumes and de-identifies every row due exactly once.
 */
const PROCESS = fileURLToPath(new URL('./fixtures/deidentify-process.ts', import.meta.url));
const ROWS = 2000;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function kill(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function counts(db: Awaited<ReturnType<Awaited<ReturnType<typeof createDurableDatabase>>['open']>>['db']) {
  const { rows } = await sql<{ done: number; counted: number }>`
    select (select count(*)::int from donations where deidentified_at is not null) as done,
           (select coalesce(max(rows), 0)::int from privacy_totals where kind = 'donations') as counted`.execute(db);
  return rows[0]!;
}

describe('de-identification killed with kill -9', () => {
  it('resumes after the last committed batch and de-identifies every row exactly once', async () => {
    const durable = await createDurableDatabase();
    cleanups.push(() => durable.dispose());
    let database = await durable.open();
    const t = await startTestApp({ database });
    await insertDonations(database.db, await partnerOf(database.db, t.storefront.clientId), ROWS, 1000);
    await sql`update donations set created_at = created_at - interval '8 years' where donor_email = 'bulk@example.com'`.execute(
      database.db,
    );
    await t.close();
    await database.close();
    const now = new Date();

    const child = spawn(process.execPath, ['--import', 'tsx', PROCESS], {
      env: { ...process.env, ...durable.env, NOW: now.toISOString() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(async () => child.exitCode === null && child.kill('SIGKILL'));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitUntil(async () => output.includes('BATCH 5\n'), { timeoutMs: 120_000, what: 'five batches' });
    await kill(child);
    expect(output).not.toContain('FINISHED');

    database = await durable.open();
    cleanups.push(() => database.close());
    const killed = await counts(database.db);
    // Five batches of ten were committed before the kill; each committed row was counted with it, once.
    expect(killed.done).toBeGreaterThanOrEqual(50);
    expect(killed.counted).toBe(killed.done);

    const report = await deidentifyDue(database.db, { ...SETTINGS, batchSize: 500 }, now);
    expect(report.donations).toBe(ROWS - killed.done);
    const after = await counts(database.db);
    expect(after).toEqual({ done: ROWS, counted: ROWS });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from donations
      where donor_email = 'bulk@example.com'`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
  }, 240_000);
});
