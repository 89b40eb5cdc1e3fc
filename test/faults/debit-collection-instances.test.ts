import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/infrastructure/db/connect.js';
import { usingPostgres } from '../helpers/database.js';
import { createScratchPostgresDatabase } from '../helpers/scratch-postgres.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * Exactly-once collection of recurring debits (docs/recurring.md) on one PostgreSQL database worked by two server
 * processes, one of them killed with SIGKILL while both are collecting. Each new plan starting today commits its
 * first debit and that debit's `debit-collection` job with it; the jobs the dead instance held stay active until
 * their expiry (the queue's production policy, with no test override), are then retried, and reach the payment the
 * first run may already have made under the try's idempotency key. After the sandbox clock settles everything,
 * each plan has one debit, each debit one payment, one try, one donation and one debit_succeeded event.
 */

const PLANS = 300;
/** Plans created at once: faster than two instances collecting one debit at a time, so a backlog builds. */
const CREATORS = 16;
/** The kill lands once this many debits have left 'scheduled', while the rest are still to be collected. */
const COLLECTED_BEFORE_KILL = PLANS / 10;
/** Safety nets only: a killed instance's jobs come back after the 120 s expiry plus a 10–20 s retry delay. */
const RECOVERY_TIMEOUT_MS = 300_000;
const TEST_TIMEOUT_MS = 480_000;

if (!usingPostgres())
  process.stderr.write(
    '\n[debit collection across instances] SKIPPED: PostgreSQL only (two server processes share one database). ' +
      'Set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run it.\n\n',
  );

const children: ChildProcess[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** A partner's calls to one server's base URL; the body of a 2xx answer's envelope, or an error naming the answer. */
function partnerApi(credentials: Credentials) {
  return async (base: string, method: 'GET' | 'POST', path: string, body?: object): Promise<any> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        'x-correlation-id': randomUUID(),
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text).data.items;
  };
}

async function debitsByStatus(database: Database): Promise<{ total: number; scheduled: number; collected: number }> {
  const { rows } = await sql<{ total: number; scheduled: number }>`
    select count(*)::int as total, (count(*) filter (where status = 'scheduled'))::int as scheduled
    from debits`.execute(database.db);
  const { total, scheduled } = rows[0]!;
  return { total, scheduled, collected: total - scheduled };
}

async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs: number,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

const rowsOf = async <R>(database: Database, query: RawBuilder<R>) => (await query.execute(database.db)).rows;

describe.skipIf(!usingPostgres())(
  'debit collection by two instances on one PostgreSQL database, one killed with SIGKILL (PostgreSQL only)',
  () => {
    it(
      `${PLANS} plans starting today: one debit, one payment, one try, one donation and one event each`,
      async () => {
        const scratch = await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL!);
        cleanups.push(() => scratch.drop());
        const env = {
          DATABASE_URL: scratch.url,
          QUOTA_DEFAULT_LIMIT: '100000000',
          RECURRING_SCAN_INTERVAL_SECONDS: '5',
          // One debit at a time per instance: collection lags creation, so the kill lands mid-backlog.
          DEBIT_COLLECTION_CONCURRENCY: '1',
        };
        const survivor = startServerProcess(env, children);
        const { banner, base: survivorBase } = await survivor.ready;
        let victim: ServerProcess = startServerProcess(env, children);
        await victim.ready;
        const [, clientId, clientSecret] = /\[Storefront App\]\s+client_id=(\S+)\s+client_secret=(\S+)/.exec(banner)!;
        const call = partnerApi({ clientId: clientId!, clientSecret: clientSecret! });
        const database = await connectDatabase({ databaseUrl: scratch.url, poolMax: 2 });
        cleanups.push(() => database.close());

        const { mandateId } = await call(survivorBase, 'POST', '/mandates', {
          source: { channel: 'Storefront App', fundraiserId: '10000001' },
          fundraiser: { firstName: 'Pat', lastName: 'Payer', email: 'pat.payer@example.com' },
          paymentMethod: 'Direct Debit',
        });
        await call(survivorBase, 'POST', `/sandbox/mandates/${mandateId}/confirm`, {
          bsb: '000-000',
          accountNumber: '000123456',
        });
        // The partner's own date in the foundation's time zone, as the API judges "today".
        const { today } = await call(survivorBase, 'GET', '/sandbox/clock');

        // Plans go to the survivor, so every creation is answered; both instances collect (the enqueue wakes both).
        const started = Date.now();
        let next = 0;
        const create = async () => {
          while (next < PLANS) {
            const i = next++;
            await call(survivorBase, 'POST', '/recurring-donations', {
              mandateId,
              amount: '25.00',
              frequency: 'monthly',
              startDate: today,
              partnerReference: `collection-fault-${i}`,
            });
          }
        };
        const creation = Promise.all(Array.from({ length: CREATORS }, create));
        creation.catch(() => undefined);

        const atKill = await pollUntil(
          () => debitsByStatus(database),
          (seen) => {
            if (seen.collected >= PLANS)
              throw new Error('every debit was collected before the kill could land: raise PLANS or CREATORS');
            return seen.collected >= COLLECTED_BEFORE_KILL;
          },
          `${COLLECTED_BEFORE_KILL} debits collected`,
          RECOVERY_TIMEOUT_MS,
        );
        await victim.kill('SIGKILL');
        const killedAt = Date.now();
        victim = startServerProcess(env, children);
        const { ms: restartMs } = await victim.ready;

        await creation;

        const recovered = await pollUntil(
          () => debitsByStatus(database),
          (seen) => seen.total === PLANS && seen.scheduled === 0,
          `all ${PLANS} debits to leave 'scheduled'`,
          RECOVERY_TIMEOUT_MS,
          250,
        );
        const recoveredAfterMs = Date.now() - killedAt;
        expect(recovered).toEqual({ total: PLANS, scheduled: 0, collected: PLANS });
        expect(await rowsOf(database, sql<{ status: string }>`select distinct status from debits`)).toEqual([
          { status: 'processing' },
        ]);

        // Two days later on the partner's sandbox clock every simulated payment settles; three to be sure.
        const advanced = await call((await victim.ready).base, 'POST', '/sandbox/clock/advance', { duration: 'P3D' });
        expect(advanced).toMatchObject({ triesSubmitted: 0, paymentsSettled: PLANS });

        // One debit per plan, from the (plan, date) key.
        const [debits] = await rowsOf(
          database,
          sql<{ plans: number; debits: number; planned: number; succeeded: number; one_try: number }>`
            select (select count(*)::int from recurring_plans) as plans, count(*)::int as debits,
              count(distinct plan_id)::int as planned,
              (count(*) filter (where status = 'succeeded'))::int as succeeded,
              (count(*) filter (where attempts = 1))::int as one_try
            from debits`,
        );
        expect(debits).toEqual({ plans: PLANS, debits: PLANS, planned: PLANS, succeeded: PLANS, one_try: PLANS });

        // One payment per (debit, try), and it is the one the debit records.
        const [payments] = await rowsOf(
          database,
          sql<{ payments: number; tries: number; first_tries: number; recorded: number; settled: number }>`
            select count(*)::int as payments, count(distinct (debit_id, attempt))::int as tries,
              (count(*) filter (where attempt = 1))::int as first_tries,
              (count(*) filter (where exists (
                select 1 from debits d where d.id = p.debit_id and d.provider_payment_id = p.id)))::int as recorded,
              (count(*) filter (where settled))::int as settled
            from simulator_payments p`,
        );
        expect(payments).toEqual({
          payments: PLANS,
          tries: PLANS,
          first_tries: PLANS,
          recorded: PLANS,
          settled: PLANS,
        });

        // One donation per debit, the one the debit names, settled once by it.
        const [donations] = await rowsOf(
          database,
          sql<{ donations: number; debits: number; named: number; settlements: number }>`
            select count(*)::int as donations, count(distinct debit_id)::int as debits,
              (count(*) filter (where exists (
                select 1 from debits d where d.id = don.debit_id and d.donation_id = don.id)))::int as named,
              (select count(*)::int from donation_settlements where debit_id is not null) as settlements
            from donations don where debit_id is not null`,
        );
        expect(donations).toEqual({ donations: PLANS, debits: PLANS, named: PLANS, settlements: PLANS });

        // The partner is told once per debit, through the event log.
        const told: string[] = [];
        let after: string | undefined;
        for (;;) {
          const page = await call(survivorBase, 'GET', `/events?limit=500${after ? `&after=${after}` : ''}`);
          for (const event of page.events as { type: string; data: { debit: { debitId: string } } }[])
            if (event.type === 'recurring_donation.debit_succeeded') told.push(event.data.debit.debitId);
          if (!page.hasMore) break;
          after = page.events.at(-1).id;
        }
        const debitIds = (await rowsOf(database, sql<{ id: string }>`select id from debits`)).map((r) => r.id);
        expect(told).toHaveLength(PLANS);
        expect([...told].sort()).toEqual(debitIds.sort());

        // What the kill left behind, told by the queue afterwards: a job run twice is one the dead instance held
        // (a live instance's collection does not fail here), and a payment made before the retry began is a kill
        // between the provider call and the commit recording it. Reported, not asserted: where the kill lands is
        // timing.
        const [orphans] = await rowsOf(
          database,
          sql<{ retried: number; paid: number }>`
            select count(*)::int as retried, (count(*) filter (where p.created_at < j.started_on))::int as paid
            from pgboss.job j join simulator_payments p on p.debit_id = j.data->>'debitId'
            where j.name = 'debit-collection' and j.retry_count > 0`,
        );

        expect(await survivor.kill('SIGTERM')).toBe(0);
        expect(await victim.kill('SIGTERM')).toBe(0);
        console.log(
          `debit collection, 2 instances, kill -9: ${PLANS} plans; ${atKill.collected} of ${atKill.total} debits ` +
            `created so far collected at the kill; restarted in ${restartMs} ms; ${orphans!.retried} job(s) of the ` +
            `dead instance retried after expiry (${orphans!.paid} already paid at the provider); every debit collected ` +
            `${(recoveredAfterMs / 1000).toFixed(1)} s after the kill, ${((Date.now() - started) / 1000).toFixed(1)} s ` +
            `in all; ${PLANS} payments, tries, donations and debit_succeeded events`,
        );
      },
      TEST_TIMEOUT_MS,
    );
  },
);
