import type { Kysely } from 'kysely';
import { dateIn } from '../../../domain/calendar-date.js';
import type { AdviceFacts } from '../../../domain/grant-advice.js';
import type { DB } from '../../../infrastructure/db/schema.js';
import { adviceRows, type AdviceGrantRow } from '../../../infrastructure/repositories/grant-advice-facts.js';

/**
 * The facts of the advices of these grants (a batch of messages, or one download), from their rows and the issuer
 * row each was advised under: the same rows, the same advice. A grant not advised yet is absent from the answer.
 */
export async function adviceFactsByIds(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, AdviceFacts>> {
  const facts = new Map<string, AdviceFacts>();
  if (ids.length === 0) return facts;
  const rows = await adviceRows(db, ids);
  for (const grant of rows.grants) facts.set(grant.id, factsOf(grant));
  const zones = new Map(rows.grants.map((g) => [g.id, g.time_zone]));
  const zoneOf = (id: string) => zones.get(id) ?? 'UTC';
  for (const d of rows.donations)
    facts.get(d.grant_id)?.donations.push({
      date: dateIn(new Date(d.at), zoneOf(d.grant_id)),
      reference: d.reference_id,
      // Named only where the donor agreed to be named to the club (donations.donor_name_shared, default not).
      donor: d.donor_name_shared ? (d.donor_business_name ?? `${d.donor_first_name} ${d.donor_last_name}`) : null,
      amountCents: Number(d.amount_cents),
    });
  for (const r of rows.recoveries)
    facts.get(r.grant_id)?.recoveries.push({
      date: dateIn(new Date(r.created_at), zoneOf(r.grant_id)),
      reference: r.donation_reference_id,
      amountCents: Number(r.amount_cents),
    });
  for (const r of rows.reissued)
    facts
      .get(r.grant_id)
      ?.reissued.push({ reference: r.lodgement_reference ?? '', amountCents: Number(r.amount_cents) });
  return facts;
}

function factsOf(g: AdviceGrantRow): AdviceFacts {
  const zone = g.time_zone;
  return {
    sample: g.advice_sample,
    issuer: { legalName: g.legal_name, abn: g.issuer_abn },
    issuedOn: dateIn(new Date(g.advised_at), zone),
    club: { name: g.club_name, memberNumber: g.member_number, abn: g.club_abn },
    round: {
      number: g.round_number,
      date: g.scheduled_on ?? dateIn(new Date(g.drafted_at), zone),
      paidOn: dateIn(new Date(g.paid_at), zone),
    },
    bank: { bsb: g.bsb, accountNumber: g.account_number, accountName: g.account_name },
    lodgementReference: g.lodgement_reference,
    donations: [],
    recoveries: [],
    reissued: [],
    totals: {
      donationsCents: Number(g.donations_cents),
      recoveredCents: Number(g.recovered_cents),
      reissuedCents: Number(g.reissued_cents),
      feeCents: Number(g.fee_cents),
      amountCents: Number(g.amount_cents),
    },
    rctiNumber: g.rcti_number,
    acquittalDueOn: g.acquittal_due_on,
  };
}
