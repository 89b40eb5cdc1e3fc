import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateIn } from '../../src/domain/calendar-date.js';
import { QUEUE_SCHEMA } from '../../src/infrastructure/queue/enqueue.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { advance, confirmedMandate, eventsOf, startPlan } from '../recurring/support.js';
import { cli, ok, type Cli } from './harness.js';

/**
 * fundraiser-admin recurring and debits (docs/cli.md, docs/recurring.md): plans made through the API on the sandbox,
 * their debits collected by the sandbox clock, then listed, canceled and retried by an operator.
 */
let t: TestApp;
let run: Cli;
let today: string;
/** Debits succeed (000123456), one plan canceled by the operator, debits fail for insufficient funds (000111116). */
const plans = { succeeding: '', toCancel: '', failing: '' };
let succeedingMandate: string;

const STOREFRONT = 'Demo Storefront Partner';

beforeAll(async () => {
  t = await startTestApp();
  run = cli({ database: t.database, now: t.clock.now, operator: 'ops-cli' });
  today = dateIn(t.clock.now(), t.config.FOUNDATION_TIME_ZONE);
  succeedingMandate = await confirmedMandate(t, '000123456');
  const failingMandate = await confirmedMandate(t, '000111116');
  const plan = (mandateId: string, amount: string) =>
    startPlan(t, { mandateId, amount, frequency: 'monthly', startDate: today });
  plans.succeeding = (await plan(succeedingMandate, '20.00')).recurringDonationId;
  plans.toCancel = (await plan(succeedingMandate, '7.50')).recurringDonationId;
  plans.failing = (await plan(failingMandate, '15.00')).recurringDonationId;
}, 180_000);
afterAll(async () => t?.close());

const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
const debitOf = async (planId: string) =>
  (await t.get(`/recurring-donations/${planId}`)).json().data.items.debits[0] as Record<string, any>;

describe('fundraiser-admin recurring', () => {
  it('cancels a plan for the foundation: audited with who and why, and the partner is told', async () => {
    const noReason = await run('recurring', 'cancel', plans.toCancel, '--reason', '  ');
    expect(noReason.code).toBe(1);
    expect(noReason.stderr).toContain('Say why');

    const canceled = await ok(run, 'recurring', 'cancel', plans.toCancel, '--reason', 'The donor asked by phone');
    expect(canceled).toMatchObject({
      id: plans.toCancel,
      status: 'canceled',
      canceledReason: 'Canceled by the foundation',
    });
    expect(canceled.debits).toEqual([expect.objectContaining({ status: 'failed', failureCode: 'canceled' })]);

    const read = (await t.get(`/recurring-donations/${plans.toCancel}`)).json().data.items;
    expect(read).toMatchObject({
      status: 'canceled',
      canceledReason: 'Canceled by the foundation',
      nextDebitDate: null,
    });
    const told = (await eventsOf(t)).filter((e) => e.type === 'recurring_donation.canceled');
    expect(told.map((e) => e.data.recurringDonation.recurringDonationId)).toEqual([plans.toCancel]);

    const audit = await ok(run, 'audit', 'list', '--action', 'recurring.cancel');
    expect(audit).toEqual([
      expect.objectContaining({
        actor: 'ops-cli',
        action: 'recurring.cancel',
        subject: plans.toCancel,
        details: expect.objectContaining({ reason: 'The donor asked by phone', statusBefore: 'active' }),
      }),
    ]);

    const again = await run('recurring', 'cancel', plans.toCancel, '--reason', 'twice');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already canceled');
    expect(await ok(run, 'audit', 'list', '--action', 'recurring.cancel')).toHaveLength(1);
  });

  it('lists plans by status, partner and mandate, newest first, and shows one with its debits', async () => {
    expect(ids(await ok(run, 'recurring', 'list', '--status', 'active'))).toEqual([plans.failing, plans.succeeding]);
    expect(ids(await ok(run, 'recurring', 'list', '--status', 'canceled'))).toEqual([plans.toCancel]);
    expect(await ok(run, 'recurring', 'list', '--status', 'completed')).toEqual([]);
    expect(ids(await ok(run, 'recurring', 'list', '--partner', STOREFRONT, '--mandate', succeedingMandate))).toEqual([
      plans.toCancel,
      plans.succeeding,
    ]);
    expect((await run('recurring', 'list', '--status', 'paused')).code).toBe(2);

    const shown = await ok(run, 'recurring', 'show', plans.succeeding);
    expect(shown).toMatchObject({
      id: plans.succeeding,
      partnerName: STOREFRONT,
      amountAud: '20.00',
      status: 'active',
    });
    expect(shown.debits).toEqual([expect.objectContaining({ dueDate: today, status: 'scheduled', sequence: 1 })]);
    const human = await run('recurring', 'show', plans.succeeding);
    expect(human.stdout).toMatch(/Amount \(AUD\) +│ 20\.00 monthly/);

    const missing = await run('recurring', 'show', 'RDN-NOPE');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No recurring donation with id "RDN-NOPE"');
  });
});

describe('fundraiser-admin debits', () => {
  it('retries a failed debit: its next try is today and a collection job is queued, then submitted', async () => {
    expect((await advance(t, 'P3D')).statusCode).toBe(200);
    const failed = await debitOf(plans.failing);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, failure: { code: 'insufficient_funds' } });
    expect(failed.nextAttemptOn).not.toBe(today);

    const listed = await ok(run, 'debits', 'list', '--view', 'failed', '--partner', STOREFRONT);
    expect(listed.find((d: { id: string }) => d.id === failed.debitId)).toMatchObject({
      planId: plans.failing,
      retryable: true,
    });

    const retry = await ok(run, 'debits', 'retry', failed.debitId);
    expect(retry).toMatchObject({ debitId: failed.debitId, nextAttemptOn: today, attempt: 2 });
    const { rows } = await sql<{ name: string; data: { debitId: string }; state: string }>`
      select name, data, state from ${sql.raw(QUEUE_SCHEMA)}.job where id = ${retry.jobId}::uuid`.execute(t.db);
    expect(rows).toEqual([{ name: 'debit-collection', data: { debitId: failed.debitId }, state: 'created' }]);
    expect(await debitOf(plans.failing)).toMatchObject({ status: 'failed', attempts: 1, nextAttemptOn: today });
    expect(await ok(run, 'audit', 'list', '--action', 'debit.retry')).toEqual([
      expect.objectContaining({ actor: 'ops-cli', subject: failed.debitId }),
    ]);

    await t.recurring.runPending();
    expect(await debitOf(plans.failing)).toMatchObject({ status: 'processing', attempts: 2, nextAttemptOn: null });
  });

  it('refuses to retry a succeeded debit, or one of a canceled plan, and queues nothing', async () => {
    const succeeded = await debitOf(plans.succeeding);
    expect(succeeded.status).toBe('succeeded');
    const refused = await run('debits', 'retry', succeeded.debitId, '--json');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(JSON.parse(refused.stderr).error.message).toBe(
      `Debit ${succeeded.debitId} is succeeded: only a failed debit can be retried.`,
    );

    const closed = await debitOf(plans.toCancel);
    const ofCanceled = await run('debits', 'retry', closed.debitId);
    expect(ofCanceled.code).toBe(1);
    expect(ofCanceled.stderr).toContain('which is canceled');

    expect(await debitOf(plans.succeeding)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(await ok(run, 'audit', 'list', '--action', 'debit.retry')).toHaveLength(1);
    expect((await run('debits', 'retry', 'DBT-NOPE')).stderr).toContain('No debit with id "DBT-NOPE"');
  });

  it('lists the processing view and an empty upcoming one, as a table for people', async () => {
    const processing = await ok(run, 'debits', 'list', '--view', 'processing');
    expect(processing.map((d: { planId: string }) => d.planId)).toEqual([plans.failing]);
    const upcoming = await run('debits', 'list', '--view', 'upcoming');
    expect(upcoming.code).toBe(0);
    expect(upcoming.stdout).toBe('No upcoming debits.\n');
  });
});
