import { randomInt, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { findRoundByNumber } from '../../src/infrastructure/repositories/grant-rounds.js';
import { afterRoundPaid } from '../../src/services/grants/rounds/on-paid.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * Paid grants, written straight into the tables of migration 030 as a paid round leaves them (a grants row with
 * status 'paid' in a grant_rounds row with status 'paid', its grant_items, its recoveries), then handed to the
 * round's paid hook (afterRoundPaid) as marking it paid does: the advices and the acquittals are built on what a round
 * leaves behind, with donors, recoveries and GST flags a test chooses (test/grants/paid-round.test.ts goes through
 * the rounds' own services).
 */
export interface ClubSpec {
  name?: string;
  gst?: boolean;
  abn?: string | null;
  finance?: string[];
  donations: { cents: number; shared?: boolean; first?: string; last?: string; business?: string }[];
  /** Reversals of donations granted earlier, recovered from this grant (cents each). */
  recoveries?: number[];
  feeCents?: number;
}

export interface PaidGrant {
  id: string;
  accountId: string;
  memberNumber: string;
  lodgementReference: string;
  amountCents: number;
  donationReferences: string[];
}

let counter = 0;
const memberNumber = () => `9${String(randomInt(0, 9_999_999)).padStart(7, '0')}`;

async function donation(t: TestApp, accountId: string, member: string, spec: ClubSpec['donations'][number]) {
  const partner = await t.db.selectFrom('partners').select('id').orderBy('created_at').executeTakeFirstOrThrow();
  const reference = randomUUID();
  await t.db
    .insertInto('donations')
    .values({
      reference_id: reference,
      partner_id: partner.id,
      environment: 'sandbox',
      is_live: false,
      channel: 'Storefront App',
      account_id: accountId,
      fundraiser_id: member,
      donor_email: `donor.${randomUUID().slice(0, 8)}@example.com`,
      donor_first_name: spec.first ?? 'Jo',
      donor_last_name: spec.last ?? 'Citizen',
      donor_business_name: spec.business ?? null,
      address_postal_code: '2000',
      transaction_at: new Date('2026-11-20T01:00:00Z'),
      amount_cents: spec.cents,
      request_hash: 'fixture',
      correlation_id: randomUUID(),
      donor_name_shared: spec.shared ?? false,
    })
    .execute();
  const row = await t.db
    .selectFrom('donations')
    .select('id')
    .where('reference_id', '=', reference)
    .executeTakeFirstOrThrow();
  return { id: row.id, reference, partnerId: partner.id };
}

/** A paid round of one grant per club; returns the round's id and its grants, in the order of `clubs`. */
export async function paidRound(
  t: TestApp,
  clubs: ClubSpec[],
  options: { paidAt?: Date } = {},
): Promise<{ roundId: string; number: number; grants: PaidGrant[] }> {
  const paidAt = options.paidAt ?? new Date('2026-11-30T23:00:00Z');
  const { rows } = await sql<{ n: number }>`select coalesce(max(number), 0)::int + 1 as n from grant_rounds`.execute(
    t.db,
  );
  const number = rows[0]!.n;
  const round = await t.db
    .insertInto('grant_rounds')
    .values({
      number,
      cutoff_at: new Date(paidAt.getTime() - 86_400_000),
      basis: 'settled',
      fee_basis_points: 0,
      minimum_cents: 2000,
      status: 'paid',
      drafted_by: 'alice@foundation.test',
      approved_by: 'bob@foundation.test',
      approved_at: paidAt,
      paid_by: 'bob@foundation.test',
      paid_at: paidAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const grants: PaidGrant[] = [];
  for (const club of clubs) {
    counter += 1;
    const member = memberNumber();
    const account = await t.db
      .insertInto('accounts')
      .values({
        member_number: member,
        name: club.name ?? `Fixture Club ${counter}`,
        abn: club.abn === undefined ? null : club.abn,
        gst_registered: club.gst ?? false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const email of club.finance ?? [])
      await t.db
        .insertInto('club_contacts')
        .values({ account_id: account.id, role: 'finance', name: 'Treasurer', email })
        .execute();
    const made = [];
    for (const spec of club.donations)
      made.push({ ...(await donation(t, account.id, member, spec)), cents: spec.cents });
    const donationsCents = club.donations.reduce((sum, d) => sum + d.cents, 0);
    const recoveredCents = (club.recoveries ?? []).reduce((sum, c) => sum + c, 0);
    const feeCents = club.feeCents ?? 0;
    const amountCents = donationsCents - recoveredCents - feeCents;
    const lodgementReference = `R${number}-${member}`;
    const grant = await t.db
      .insertInto('grants')
      .values({
        round_id: round.id,
        account_id: account.id,
        status: 'paid',
        donations_cents: donationsCents,
        recovered_cents: recoveredCents,
        fee_cents: feeCents,
        amount_cents: amountCents,
        donation_count: made.length,
        bsb: '062-000',
        account_number: '12345678',
        account_name: 'CLUB ACCOUNT',
        lodgement_reference: lodgementReference,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (made.length > 0)
      await t.db
        .insertInto('grant_items')
        .values(made.map((d) => ({ donation_id: d.id, grant_id: grant.id, amount_cents: d.cents })))
        .execute();
    for (const cents of club.recoveries ?? []) {
      // A donation an earlier round granted, reversed since: its reversal is recovered from this grant.
      const earlier = await donation(t, account.id, member, { cents: cents + 1000 });
      const reversalId = `rev_${randomUUID()}`;
      await t.db
        .insertInto('donation_reversals')
        .values({
          id: reversalId,
          donation_id: earlier.id,
          donation_reference_id: earlier.reference,
          partner_id: earlier.partnerId,
          environment: 'sandbox',
          amount_cents: cents,
          reason: 'refunded',
          requested_by: 'partner',
          owed_back: true,
        })
        .execute();
      await t.db
        .insertInto('grant_recoveries')
        .values({ reversal_id: reversalId, grant_id: grant.id, amount_cents: cents })
        .execute();
    }
    grants.push({
      id: grant.id,
      accountId: account.id,
      memberNumber: member,
      lodgementReference,
      amountCents,
      donationReferences: made.map((d) => d.reference),
    });
  }
  await t.db
    .updateTable('grant_rounds')
    .set({ grant_count: grants.length, total_cents: grants.reduce((s, g) => s + g.amountCents, 0) })
    .where('id', '=', round.id)
    .execute();
  // What marking it paid does next (services/grants/rounds/paid.ts): the acquittals opened, the advices enqueued.
  const paid = (await findRoundByNumber(t.db, number))!;
  await t.db.transaction().execute((trx) =>
    afterRoundPaid(trx, paid, {
      acquittalDueDays: t.config.ACQUITTAL_DUE_DAYS,
      timeZone: t.config.FOUNDATION_TIME_ZONE,
      at: paidAt,
    }),
  );
  return { roundId: round.id, number, grants };
}
