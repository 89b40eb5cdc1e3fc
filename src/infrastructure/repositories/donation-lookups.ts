import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A donation as support staff need to see it, with its partner and fundraiser account named. */
export interface DonationRecord {
  referenceId: string;
  createdAt: Date;
  partnerId: string;
  partnerName: string;
  environment: string;
  isLive: boolean;
  channel: string;
  fundraiserId: string;
  memberNumber: string;
  accountName: string;
  productEnrollmentId: string | null;
  donorEmail: string;
  donorVerifiedEmail: string | null;
  donorName: string;
  donorMobile: string | null;
  donorBusinessName: string | null;
  postalCode: string | null;
  transactionId: string | null;
  transactionDate: string | null;
  amountCents: number | null;
  correlationId: string;
  sourceMetadata: unknown;
}

export interface DonationQuery {
  referenceId?: string;
  transactionId?: string;
  /** Matched without regard to case. */
  donorEmail?: string;
  partnerId?: string;
  channel?: string;
  /** Received at or after. */
  from?: Date;
  /** Received before. */
  until?: Date;
  limit: number;
}

/** Donations matching every given criterion, oldest first. */
export async function findDonationRecords(db: Kysely<DB>, q: DonationQuery): Promise<DonationRecord[]> {
  let query = db
    .selectFrom('donations as d')
    .innerJoin('partners as p', 'p.id', 'd.partner_id')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select([
      'd.reference_id as referenceId',
      'd.created_at as createdAt',
      'p.id as partnerId',
      'p.name as partnerName',
      'd.environment',
      'd.is_live as isLive',
      'd.channel',
      'd.fundraiser_id as fundraiserId',
      'a.member_number as memberNumber',
      'a.name as accountName',
      'd.product_enrollment_id as productEnrollmentId',
      'd.donor_email as donorEmail',
      'd.donor_verified_email as donorVerifiedEmail',
      sql<string>`d.donor_first_name || ' ' || d.donor_last_name`.as('donorName'),
      'd.donor_mobile as donorMobile',
      'd.donor_business_name as donorBusinessName',
      'd.address_postal_code as postalCode',
      'd.transaction_id as transactionId',
      'd.transaction_date_raw as transactionDate',
      'd.amount_cents as amountCents',
      'd.correlation_id as correlationId',
      'd.source_metadata as sourceMetadata',
    ]);
  if (q.referenceId) query = query.where('d.reference_id', '=', q.referenceId);
  if (q.transactionId) query = query.where('d.transaction_id', '=', q.transactionId);
  if (q.donorEmail) query = query.where(sql<string>`lower(d.donor_email)`, '=', q.donorEmail.toLowerCase());
  if (q.partnerId) query = query.where('d.partner_id', '=', q.partnerId);
  if (q.channel) query = query.where('d.channel', '=', q.channel);
  if (q.from) query = query.where('d.created_at', '>=', q.from);
  if (q.until) query = query.where('d.created_at', '<', q.until);
  return query.orderBy('d.created_at').orderBy('d.reference_id').limit(q.limit).execute();
}

/** Count and total of a partner's donations in a period, whatever the listing limit. */
export async function totalDonations(
  db: Kysely<DB>,
  q: Pick<DonationQuery, 'partnerId' | 'channel' | 'from' | 'until'>,
) {
  let query = db
    .selectFrom('donations as d')
    .select([
      sql<number>`count(*)::int`.as('count'),
      sql<number>`coalesce(sum(d.amount_cents), 0)::bigint`.as('totalCents'),
    ]);
  if (q.partnerId) query = query.where('d.partner_id', '=', q.partnerId);
  if (q.channel) query = query.where('d.channel', '=', q.channel);
  if (q.from) query = query.where('d.created_at', '>=', q.from);
  if (q.until) query = query.where('d.created_at', '<', q.until);
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.count), totalCents: Number(row.totalCents) };
}
