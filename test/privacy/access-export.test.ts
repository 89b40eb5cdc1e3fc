import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { give, receiptsOf, settle } from '../receipts/donations.js';
import { uniqueEmail } from './support.js';

/** An access request (docs/privacy.md): one zip of everything held about a person, readable by them; audited. */
let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await startTestApp();
  dir = mkdtempSync(join(tmpdir(), 'privacy-export-'));
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const admin = () => cli({ database: t.database, operator: 'alice@foundation.test' });

describe('privacy export', () => {
  it('writes index.html, the records as JSON, each receipt as its PDF, and staff actions on them', async () => {
    const email = uniqueEmail('access');
    const settled = await give(t, '45.00', { email, firstName: 'Katherine', lastName: 'Johnson' });
    await settle(t, [{ id: settled, amount: 45 }]);
    const other = await give(t, '5.00', { email: email.toUpperCase() });
    await give(t, '7.00', { email: uniqueEmail('someone-else') });
    const [receipt] = await receiptsOf(t, settled);
    // A member of staff looked at the receipt: the person sees that it was looked at.
    expect((await admin()('receipts', 'show', receipt!.number)).code).toBe(0);

    const file = join(dir, 'access.zip');
    const result = await admin()('privacy', 'export', '--email', email, '--out', file, '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(result.json().counts).toMatchObject({ donations: 2, receipts: 1 });

    const files = unzipSync(new Uint8Array(readFileSync(file)));
    expect(Object.keys(files).sort()).toEqual(
      [
        'index.html',
        'donations.json',
        'corrections.json',
        'receipts.json',
        'mandates.json',
        'plans.json',
        'debits.json',
        'statements.json',
        'mail.json',
        'audit.json',
        `receipts/receipt-${receipt!.number}.pdf`,
      ].sort(),
    );
    const donations = JSON.parse(strFromU8(files['donations.json']!)) as Record<string, unknown>[];
    expect(donations.map((d) => d.reference_id).sort()).toEqual([settled, other].sort());
    expect(donations.find((d) => d.reference_id === settled)).toMatchObject({
      donor_first_name: 'Katherine',
      donor_last_name: 'Johnson',
      amount_cents: '4500',
    });
    expect(strFromU8(files[`receipts/receipt-${receipt!.number}.pdf`]!.slice(0, 5))).toBe('%PDF-');
    const audit = JSON.parse(strFromU8(files['audit.json']!)) as Record<string, unknown>[];
    expect(audit).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'receipt.view', subject: receipt!.number })]),
    );
    expect(audit.every((a) => !('actor' in a))).toBe(true);
    const index = strFromU8(files['index.html']!);
    expect(index).toContain('What we hold about you');
    expect(index).toContain(settled);
    expect(index).toContain('45.00');

    // The export is audited with its counts, never the address.
    const { rows } = await sql<{
      details: unknown;
    }>`select details from audit_log where action = 'privacy.export'`.execute(t.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.details).toMatchObject({ donations: 2, receipts: 1 });
    expect(JSON.stringify(rows).toLowerCase()).not.toContain(email);
  });

  it('never writes over an existing file, and says when nothing is held', async () => {
    const taken = join(dir, 'taken.zip');
    writeFileSync(taken, 'mine');
    const email = uniqueEmail('taken');
    await give(t, '5.00', { email });
    const refused = await admin()('privacy', 'export', '--email', email, '--out', taken);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('the file exists');
    expect(readFileSync(taken, 'utf8')).toBe('mine');

    const nobody = await admin()('privacy', 'export', '--email', uniqueEmail('nobody'), '--out', join(dir, 'n.zip'));
    expect(nobody.code).not.toBe(0);
    expect(nobody.stderr).toContain('Nothing is held about that address');
  });
});
