import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { addDays, dateIn } from '../../src/domain/calendar-date.js';
import type { Database } from '../../src/infrastructure/db/connect.js';
import { draftRound } from '../../src/services/grants/rounds/draft.js';
import { roundTerms, type RoundTerms } from '../../src/services/grants/rounds/terms.js';
import type { TestApp } from '../helpers/test-app.js';
import { donation, partnerReversal, remit } from '../reversals/support.js';

/** Grant rounds' test set-up: clubs with bank details, settled donations, reversals, drafts (docs/grants.md). */

/** The two demo clubs the partners give to: Storefront's 10000001 and Registration's 10000003. */
export const CLUB = { storefront: '10000001', registration: '10000003' } as const;
type Partner = keyof typeof CLUB;

const DAY = 86_400_000;

export async function accountIdOf(db: Database['db'], memberNumber: string): Promise<string> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('member_number', '=', memberNumber)
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A club's verified bank details, entered `enteredDaysAgo` days ago by one operator and verified by another (what
 * the bank details' own service does; written here so that rounds are tested on their own).
 */
export async function verifiedDetails(
  db: Database['db'],
  memberNumber: string,
  options: { enteredDaysAgo?: number; holdWaived?: boolean; verifiedAt?: Date; bsb?: string; account?: string } = {},
) {
  const accountId = await accountIdOf(db, memberNumber);
  const enteredAt = new Date(Date.now() - (options.enteredDaysAgo ?? 30) * DAY);
  await db
    .updateTable('club_bank_details')
    .set({ status: 'superseded', superseded_at: new Date() })
    .where('account_id', '=', accountId)
    .where('status', '=', 'verified')
    .execute();
  return db
    .insertInto('club_bank_details')
    .values({
      account_id: accountId,
      bsb: options.bsb ?? '062-111',
      account_number: options.account ?? `${memberNumber.slice(-4)}0001`,
      account_name: `Club ${memberNumber}`,
      status: 'verified',
      entered_by: 'clerk@example.org',
      entered_at: enteredAt,
      source: 'cli',
      verified_by: 'checker@example.org',
      verified_at: options.verifiedAt ?? new Date(enteredAt.getTime() + 60_000),
      confirmation: 'called the treasurer',
      hold_waived: options.holdWaived ?? false,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Donations of these amounts (AUD) to the partner's club, settled by one remittance entry each; their references. */
export async function settledDonations(t: TestApp, amounts: number[], partner: Partner = 'storefront') {
  const refs: string[] = [];
  for (const amount of amounts) refs.push(await donation(t, amount.toFixed(2), partner));
  await remit(
    t,
    refs.map((ref, i) => ({ ref: `BANK-${randomUUID().slice(0, 12)}`, amount: amounts[i]!, ids: [ref] })),
    partner,
  );
  return refs;
}

export { donation, partnerReversal };

/** The terms of the test app's settings, with overrides. */
export const termsOf = (t: TestApp, overrides: Partial<RoundTerms> = {}): RoundTerms => ({
  ...roundTerms(t.config),
  ...overrides,
});

/** Tomorrow in the foundation's zone: a cut-off after everything settled so far. */
export const tomorrow = (t: TestApp) => addDays(dateIn(new Date(), t.config.FOUNDATION_TIME_ZONE), 1);

/** An operator's draft paying everything settled so far. */
export function draft(t: TestApp, terms = termsOf(t), by = 'drafter@example.org') {
  return draftRound(t.db, terms, { scheduledOn: null, cutoffDay: tomorrow(t), by, at: new Date() });
}

/** A round's lines by member number. */
export async function linesOf(db: Database['db'], roundId: string) {
  const rows = await db
    .selectFrom('grants')
    .innerJoin('accounts', 'accounts.id', 'grants.account_id')
    .select([
      'accounts.member_number',
      'grants.id',
      'grants.status',
      'grants.hold_reason',
      'grants.donations_cents',
      'grants.recovered_cents',
      'grants.reissued_cents',
      'grants.fee_cents',
      'grants.amount_cents',
      'grants.donation_count',
      'grants.lodgement_reference',
    ])
    .where('grants.round_id', '=', roundId)
    .execute();
  // PGlite reads int8 as a number, pg as a string: compared as strings.
  const cents = (r: (typeof rows)[number]) => ({
    ...r,
    donations_cents: String(r.donations_cents),
    recovered_cents: String(r.recovered_cents),
    reissued_cents: String(r.reissued_cents),
    fee_cents: String(r.fee_cents),
    amount_cents: String(r.amount_cents),
  });
  return Object.fromEntries(rows.map((r) => [r.member_number, cents(r)]));
}

/** An approved round, as approval leaves it (for tests of what follows approval without the approval's service). */
export async function markApproved(db: Database['db'], roundId: string) {
  await sql`update grant_rounds set status = 'approved', reviewed_by = 'reviewer@example.org', reviewed_at = now(),
            approved_by = 'approver@example.org', approved_at = now() where id = ${roundId}`.execute(db);
}

/** Grant items of a round's donations. */
export async function grantedDonationCount(db: Database['db']) {
  const row = await db
    .selectFrom('grant_items')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
