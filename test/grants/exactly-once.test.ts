import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGrantData } from '../../bench/grant-data.js';
import { loadConfig } from '../../src/config/index.js';
import { addDays, dateIn } from '../../src/domain/calendar-date.js';
import type { Database } from '../../src/infrastructure/db/connect.js';
import { draftRound } from '../../src/services/grants/rounds/draft.js';
import { roundTerms } from '../../src/services/grants/rounds/terms.js';
import { createDurableDatabase } from '../reconciliation/support.js';
import { markApproved } from './support.js';

/**
 * Each donation is granted exactly once (docs/grants.md): two drafters at once, and a drafter killed (kill -9) in the
 * middle of its transaction, after it claimed the donations and before it committed.
 */
const DRAFTER = fileURLToPath(new URL('./fixtures/draft-process.ts', import.meta.url));
const config = loadConfig({ LOG_LEVEL: 'silent' });
const terms = roundTerms(config);
const TODAY = dateIn(new Date(), config.FOUNDATION_TIME_ZONE);
const CUTOFF_DAY = addDays(TODAY, 1);
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function durableWithDonations(clubs: number, donationsPerClub: number) {
  const durable = await createDurableDatabase();
  cleanups.push(() => durable.dispose());
  const database = await durable.open();
  try {
    await loadGrantData(database.db, {
      clubs,
      donationsPerClub,
      amountCents: 1_000,
      environment: config.APP_ENV,
      tag: 'X',
    });
  } finally {
    await database.close();
  }
  return durable;
}

async function granted(db: Database['db']) {
  const { rows } = await sql<{ n: string; cents: string; distinct: string }>`
    select count(*)::text as n, coalesce(sum(amount_cents), 0)::text as cents,
           count(distinct donation_id)::text as distinct from grant_items`.execute(db);
  return { donations: Number(rows[0]!.n), cents: Number(rows[0]!.cents), distinct: Number(rows[0]!.distinct) };
}

const draftAt = (db: Database['db'], scheduledOn: string | null, by: string) =>
  draftRound(db, terms, {
    scheduledOn,
    cutoffDay: scheduledOn ?? CUTOFF_DAY,
    by,
    at: new Date('2999-01-01T00:00:00Z'),
  });

describe('grant rounds drafted exactly once', { timeout: 240_000 }, () => {
  it('lets one of two drafters at once through; the other is refused, or (the schedule) finds its round', async () => {
    const durable = await durableWithDonations(5, 40);
    const first = await durable.open();
    cleanups.push(() => first.close());
    // Two instances on PostgreSQL (two pools); the embedded database is one process's, so one connection twice.
    const second = durable.kind === 'postgres' ? await durable.open() : first;
    if (second !== first) cleanups.push(() => second.close());

    const operators = await Promise.allSettled([draftAt(first.db, null, 'ann'), draftAt(second.db, null, 'ben')]);
    const made = operators.filter((o) => o.status === 'fulfilled');
    const refused = operators.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(made).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(String(refused[0]!.reason)).toMatch(/Round 1 is an open draft|Another round was being drafted/);
    expect(await granted(first.db)).toEqual({ donations: 200, cents: 200_000, distinct: 200 });
    await markApproved(first.db, (await first.db.selectFrom('grant_rounds').select('id').executeTakeFirstOrThrow()).id);

    const scheduled = await Promise.all([draftAt(first.db, TODAY, 'schedule'), draftAt(second.db, TODAY, 'schedule')]);
    expect(scheduled.map((s) => s.drafted).sort()).toEqual([false, true]);
    expect(scheduled[0].round.number).toBe(2);
    expect(scheduled[1].round.number).toBe(2);
    const rounds = await first.db
      .selectFrom('grant_rounds')
      .select(['number', 'total_cents'])
      .orderBy('number')
      .execute();
    expect(rounds.map((r) => [r.number, Number(r.total_cents)])).toEqual([
      [1, 200_000],
      [2, 0],
    ]);
    expect(await granted(first.db)).toEqual({ donations: 200, cents: 200_000, distinct: 200 });
  });

  it('a drafter killed (kill -9) after claiming, before committing: nothing claimed; the redraft grants each once', async () => {
    // Big enough that claiming is real work; smaller on the embedded database, slower per row.
    const CLUBS = 20;
    const EACH = process.env.TEST_DATABASE_URL ? 2_500 : 500;
    const durable = await durableWithDonations(CLUBS, EACH);
    const child = spawn(process.execPath, ['--import', 'tsx', DRAFTER], {
      env: { ...process.env, ...durable.env, CUTOFF_DAY, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(async () => child.exitCode === null && child.kill('SIGKILL'));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => /^CLAIMED \d+$/m.test(output) && resolve());
      child.once('exit', () => reject(new Error(`the drafter exited: ${output}`)));
    });
    expect(output).toMatch(new RegExp(`CLAIMED ${CLUBS * EACH}`));
    await kill(child);
    expect(output).not.toMatch(/COMMITTED/);

    const database = await durable.open();
    cleanups.push(() => database.close());
    expect(await database.db.selectFrom('grant_rounds').selectAll().execute()).toEqual([]);
    expect(await granted(database.db)).toEqual({ donations: 0, cents: 0, distinct: 0 });

    const redraft = await draftAt(database.db, null, 'after-the-crash');
    expect(redraft).toMatchObject({ drafted: true, round: { number: 1, grant_count: CLUBS, held_count: 0 } });
    expect(Number(redraft.round.total_cents)).toBe(CLUBS * EACH * 1_000);
    expect(await granted(database.db)).toEqual({
      donations: CLUBS * EACH,
      cents: CLUBS * EACH * 1_000,
      distinct: CLUBS * EACH,
    });
    await markApproved(database.db, redraft.round.id);
    const next = await draftAt(database.db, null, 'after-the-crash');
    expect(next).toMatchObject({ drafted: true, round: { number: 2, grant_count: 0 } });
    expect(await granted(database.db)).toMatchObject({ donations: CLUBS * EACH, distinct: CLUBS * EACH });
  });
});

async function kill(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
