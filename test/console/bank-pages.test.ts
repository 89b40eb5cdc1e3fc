import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/services/operators/audit.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { camt053, dayOf, expectedBatch, fundsReceived, unique } from '../bank-statements/support.js';
import { createOperator, getPage, postForm, signIn } from './support.js';

/**
 * The console's bank pages (docs/bank-statements.md, "Console"): upload a statement, see suggestions, unmatched
 * lines and unpaid entries, confirm, reject, and undo a match with a reason; a viewer sees no form.
 */
const ADMIN = 'finance@foundation.example';
const VIEWER = 'viewer@foundation.example';
let t: TestApp;
let admin: { session: string; csrf: string };

beforeAll(async () => {
  t = await startTestApp();
  await createOperator(t, ADMIN, 'admin');
  await createOperator(t, VIEWER, 'viewer');
  admin = await signIn(t, ADMIN, '/console/bank');
}, 180_000);
afterAll(() => t?.close());

/** A multipart form as a browser posts it: text fields and one file. */
function upload(fields: Record<string, string>, file: { name: string; content: string }) {
  const boundary = '----bank-test-boundary';
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n${file.content}\r\n`,
  );
  return t.app.inject({
    method: 'POST',
    url: '/console/bank/import',
    cookies: { console_session: admin.session },
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `${parts.join('')}--${boundary}--\r\n`,
  });
}
const audited = (action: string) => listAudit({ db: t.db, operator: 'test', now: t.clock.now }, { action, limit: 5 });

describe('the bank page', () => {
  it('imports an uploaded camt.053 file and shows its suggestions, unmatched lines and unpaid entries', async () => {
    const [exact, near] = [unique('CON-'), unique('CON-')];
    const paid = await expectedBatch(t, [{ ref: exact, amount: '23.00' }]);
    const waiting = await expectedBatch(t, [{ ref: near, amount: '57.00' }]);
    const file = camt053([
      { amount: '23.00', booked: dayOf(t), bankRef: unique('BK'), endToEndId: exact },
      { amount: '57.25', booked: dayOf(t), bankRef: unique('BK'), ustrd: [`GIFT ${near}`] },
    ]);
    const response = await upload(
      { _csrf: admin.csrf, preset: '', mapping: '', account: '' },
      { name: 's.xml', content: file },
    );
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('s.xml: 2 line(s) read, 2 added, 0 already imported; 1 matched automatically');
    expect(await fundsReceived(t, paid)).toEqual([true]);
    expect(response.body).toContain('Suggestions to confirm or reject');
    expect(response.body).toContain(`GIFT ${near}`);
    expect(response.body).toContain('Credit lines not matched, oldest first');
    expect(response.body).toContain('Entries whose money was not received');
    expect(response.body).toContain(`/console/remittances/${waiting}`);
    expect((await audited('bank.import'))[0]).toMatchObject({ actor: ADMIN });
  });

  it('refuses a bad CSV whole, listing each line and field, with a 400', async () => {
    const response = await upload(
      { _csrf: admin.csrf, preset: 'commbank', mapping: '', account: 'X' },
      { name: 'bad.csv', content: '01/01/2026,1.00,"A"\n01/13/2026,1.00,"B"\n' },
    );
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('bad.csv was rejected: 1 problem found. Nothing was imported.');
    expect(response.body).toMatch(/line 2<\/td>\s*<td>date<\/td>/);
    const noLayout = await upload({ _csrf: admin.csrf }, { name: 'x.csv', content: 'a,b\n' });
    expect(noLayout.statusCode).toBe(400);
    expect(noLayout.body).toContain('a CSV statement needs --preset');
  });

  it('confirms and rejects suggestions, and undoes a match with a reason, audited', async () => {
    const [a, b] = [unique('DEC-'), unique('DEC-')];
    const batchA = await expectedBatch(t, [{ ref: a, amount: '81.00' }]);
    await expectedBatch(t, [{ ref: b, amount: '92.00' }]);
    const file = camt053([
      { amount: '81.10', booked: dayOf(t), bankRef: unique('BK'), ustrd: [a] },
      { amount: '92.10', booked: dayOf(t), bankRef: unique('BK'), ustrd: [b] },
    ]);
    const page = (await upload({ _csrf: admin.csrf }, { name: 'd.xml', content: file })).body;
    const idOf = (ref: string) => {
      const row = page.split('<tr>').find((r) => r.includes(ref) && r.includes('/confirm'))!;
      return /\/console\/bank\/suggestions\/(\d+)\/confirm/.exec(row)![1]!;
    };
    const [confirmId, rejectId] = [idOf(a), idOf(b)];

    const confirmed = await postForm(t, admin.session, `/console/bank/suggestions/${confirmId}/confirm`, {
      _csrf: admin.csrf,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toMatch(/Confirmed as match \d+: the money of 1 entry is received\./);
    expect(await fundsReceived(t, batchA)).toEqual([true]);
    const rejected = await postForm(t, admin.session, `/console/bank/suggestions/${rejectId}/reject`, {
      _csrf: admin.csrf,
      reason: 'another donor',
    });
    expect(rejected.body).toContain(`Suggestion ${rejectId} rejected`);
    const twice = await postForm(t, admin.session, `/console/bank/suggestions/${rejectId}/reject`, {
      _csrf: admin.csrf,
    });
    expect(twice.statusCode).toBe(409);
    expect((await audited('bank.reject'))[0]!.details).toMatchObject({ reason: 'another donor' });

    const matches = await getPage(t, admin.session, '/console/bank/matches');
    const matchId = /\/console\/bank\/matches\/(\d+)\/unmatch/.exec(matches.body)![1]!;
    const blank = await postForm(t, admin.session, `/console/bank/matches/${matchId}/unmatch`, {
      _csrf: admin.csrf,
      reason: ' ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('Say why the match is undone');
    const undone = await postForm(t, admin.session, `/console/bank/matches/${matchId}/unmatch`, {
      _csrf: admin.csrf,
      reason: 'duplicate credit',
    });
    expect(undone.statusCode).toBe(200);
    expect(undone.body).toContain(`Match ${matchId} undone`);
    expect(undone.body).toContain(`by ${ADMIN}: duplicate credit`);
    expect((await audited('bank.unmatch'))[0]).toMatchObject({ actor: ADMIN, subject: `match ${matchId}` });
    const notANumber = await postForm(t, admin.session, '/console/bank/suggestions/abc/confirm', { _csrf: admin.csrf });
    expect(notANumber.statusCode).toBe(400);
  });

  it('shows a viewer the lists without a form, and refuses their decisions', async () => {
    const viewer = await signIn(t, VIEWER, '/console/bank');
    const page = await getPage(t, viewer.session, '/console/bank');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('can read but not change bank matches');
    expect(page.body).not.toContain('/console/bank/import');
    const refused = await postForm(t, viewer.session, '/console/bank/suggestions/1/confirm', { _csrf: viewer.csrf });
    expect(refused.statusCode).toBe(403);
  });
});
