import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dateIn } from '../../src/domain/calendar-date.js';
import { listAudit } from '../../src/services/operators/audit.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { advance, confirmedMandate, startPlan } from '../recurring/support.js';
import { createOperator, getPage, postForm, signIn } from './support.js';

/**
 * The console's recurring donation and debit pages (docs/console.md, docs/recurring.md): plans by status, a plan
 * with its debits and the admin's cancel, the debit views with a retry, the link from a donation to its debit.
 */
const ADMIN = 'admin@foundation.example';
const VIEWER = 'viewer@foundation.example';

let t: TestApp;
/** Debits succeed (000123456), fail for insufficient funds (000111116), are disputed after success (000222227). */
const plans = { succeeding: '', failing: '', disputed: '' };
let upcomingDebit: string;

const planOf = async (planId: string) =>
  (await t.get(`/recurring-donations/${planId}`)).json().data.items as Record<string, any>;

beforeAll(async () => {
  t = await startTestApp();
  await createOperator(t, ADMIN, 'admin');
  await createOperator(t, VIEWER, 'viewer');
  const today = dateIn(t.clock.now(), t.config.FOUNDATION_TIME_ZONE);
  for (const [key, account] of [
    ['succeeding', '000123456'],
    ['failing', '000111116'],
    ['disputed', '000222227'],
  ] as const) {
    const mandateId = await confirmedMandate(t, account);
    const plan = await startPlan(t, { mandateId, amount: '12.00', frequency: 'monthly', startDate: today });
    plans[key] = plan.recurringDonationId;
  }
  const mandateId = await confirmedMandate(t, '000123456');
  const oneOff = await t.post(`/mandates/${mandateId}/debits`, {
    amount: '30.00',
    date: addDays(today, 20),
    transaction: { id: 'ROUND-UP-1' },
  });
  expect(oneOff.statusCode).toBe(201);
  upcomingDebit = oneOff.json().data.items.debitId;
  expect((await advance(t, 'P3D')).statusCode).toBe(200);
}, 180_000);
afterAll(() => t?.close());

describe('console recurring donation pages', () => {
  it('lists plans with a status filter, linked from the navigation', async () => {
    const { session } = await signIn(t, VIEWER, '/console/recurring');
    const active = await getPage(t, session, '/console/recurring?status=active');
    expect(active.statusCode).toBe(200);
    expect(active.body).toContain('href="/console/recurring" aria-current="page"');
    expect(active.body).toContain('href="/console/debits"');
    for (const id of Object.values(plans)) expect(active.body).toContain(`/console/recurring/${id}`);
    const canceled = await getPage(t, session, '/console/recurring?status=canceled');
    expect(canceled.body).toContain('No recurring donations match.');
    const wrong = await getPage(t, session, '/console/recurring?status=paused');
    expect(wrong.statusCode).toBe(400);
  });

  it('shows a plan with its debits; a viewer sees no cancel form and cannot cancel', async () => {
    const { session, csrf } = await signIn(t, VIEWER, '/console/recurring');
    const page = await getPage(t, session, `/console/recurring/${plans.failing}`);
    expect(page.statusCode).toBe(200);
    const debitId = (await planOf(plans.failing)).debits[0].debitId as string;
    expect(page.body).toContain(`/console/debits/${debitId}`);
    expect(page.body).toContain('Insufficient funds in the account');
    expect(page.body).not.toContain('Cancel this recurring donation');
    expect(page.body).toContain('Your role (viewer) can read but not change recurring donations');

    const refused = await postForm(t, session, `/console/recurring/${plans.failing}/cancel`, {
      _csrf: csrf,
      reason: 'not mine to cancel',
      confirm: 'yes',
    });
    expect(refused.statusCode).toBe(403);
    expect((await planOf(plans.failing)).status).toBe('active');
  });

  it('lets an admin cancel with a reason and a confirmation, posted with the CSRF token; audited', async () => {
    const { session, csrf } = await signIn(t, ADMIN, '/console/recurring');
    const url = `/console/recurring/${plans.disputed}/cancel`;
    const page = await getPage(t, session, `/console/recurring/${plans.disputed}`);
    expect(page.body).toContain(`action="${url}"`);
    expect(page.body).toContain('name="confirm" value="yes" required');

    const forged = await postForm(t, session, url, { reason: 'forged', confirm: 'yes' });
    expect(forged.statusCode).toBe(403);
    const unconfirmed = await postForm(t, session, url, { _csrf: csrf, reason: 'Payer disputed the debit' });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.body).toContain('Tick the confirmation');
    expect((await planOf(plans.disputed)).status).toBe('active');

    const canceled = await postForm(t, session, url, {
      _csrf: csrf,
      reason: 'Payer disputed the debit',
      confirm: 'yes',
    });
    expect(canceled.statusCode).toBe(200);
    expect(canceled.body).toContain('Canceled: no further debit.');
    expect(canceled.body).not.toContain('Cancel this recurring donation');
    expect(await planOf(plans.disputed)).toMatchObject({
      status: 'canceled',
      canceledReason: 'Canceled by the foundation',
    });
    const [entry] = await listAudit(
      { db: t.db, operator: 'test', now: t.clock.now },
      { action: 'recurring', limit: 10 },
    );
    expect(entry).toMatchObject({
      actor: ADMIN,
      action: 'recurring.cancel',
      subject: plans.disputed,
      details: expect.objectContaining({ reason: 'Payer disputed the debit' }),
    });
    const listed = await getPage(t, session, '/console/recurring?status=canceled');
    expect(listed.body).toContain(`/console/recurring/${plans.disputed}`);
  });
});

describe('console debit pages', () => {
  it('shows the upcoming, failed and disputed views, with a retry button for admins only', async () => {
    const failedId = (await planOf(plans.failing)).debits[0].debitId as string;
    const disputedId = (await planOf(plans.disputed)).debits[0].debitId as string;
    const retryAction = `action="/console/debits/${failedId}/retry"`;
    const viewer = await signIn(t, VIEWER, '/console/recurring');
    const admin = await signIn(t, ADMIN, '/console/recurring');

    const failed = await getPage(t, admin.session, '/console/debits?view=failed');
    expect(failed.statusCode).toBe(200);
    expect(failed.body).toContain(`/console/debits/${failedId}`);
    expect(failed.body).toContain(retryAction);
    expect((await getPage(t, viewer.session, '/console/debits?view=failed')).body).not.toContain(retryAction);

    const upcoming = await getPage(t, viewer.session, '/console/debits?view=upcoming');
    expect(upcoming.body).toContain(`/console/debits/${upcomingDebit}`);
    expect(upcoming.body).not.toContain(`/console/debits/${failedId}`);

    const disputed = await getPage(t, viewer.session, '/console/debits?view=disputed');
    expect(disputed.body).toContain(`/console/debits/${disputedId}`);
    expect(disputed.body).not.toContain(`/console/debits/${failedId}`);
  });

  it('lets an admin retry a failed debit, refuses a viewer, and refuses a succeeded debit', async () => {
    const failedId = (await planOf(plans.failing)).debits[0].debitId as string;
    const viewer = await signIn(t, VIEWER, '/console/recurring');
    expect(
      (await postForm(t, viewer.session, `/console/debits/${failedId}/retry`, { _csrf: viewer.csrf })).statusCode,
    ).toBe(403);

    const admin = await signIn(t, ADMIN, '/console/recurring');
    const retried = await postForm(t, admin.session, `/console/debits/${failedId}/retry`, { _csrf: admin.csrf });
    expect(retried.statusCode).toBe(200);
    expect(retried.body).toContain('Try 2 is queued for');
    await t.recurring.runPending();
    const debit = (await t.get(`/debits/${failedId}`)).json().data.items;
    expect(debit).toMatchObject({ status: 'processing', attempts: 2 });

    const succeededId = (await planOf(plans.succeeding)).debits[0].debitId as string;
    const refused = await postForm(t, admin.session, `/console/debits/${succeededId}/retry`, { _csrf: admin.csrf });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('only a failed debit can be retried');
  });

  it('links a donation collected by a debit to the debit, and the debit to its plan and donation', async () => {
    const { session } = await signIn(t, VIEWER, '/console/recurring');
    const collected = (await planOf(plans.succeeding)).debits[0] as { debitId: string; donationReferenceId: string };
    const donation = await getPage(t, session, `/console/donations/${collected.donationReferenceId}`);
    expect(donation.statusCode).toBe(200);
    expect(donation.body).toContain(`<a href="/console/debits/${collected.debitId}">${collected.debitId}</a>`);

    const debit = await getPage(t, session, `/console/debits/${collected.debitId}`);
    expect(debit.statusCode).toBe(200);
    expect(debit.body).toContain(`href="/console/recurring/${plans.succeeding}"`);
    expect(debit.body).toContain(`href="/console/donations/${collected.donationReferenceId}"`);
    expect((await getPage(t, session, '/console/debits/DBT-NOPE')).statusCode).toBe(404);
  });
});
