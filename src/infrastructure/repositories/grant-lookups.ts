import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A grant as operators name it (by its lodgement reference), with its club and round. */
export function grantByReference(db: Kysely<DB>, lodgementReference: string) {
  return db
    .selectFrom('grants as g')
    .innerJoin('accounts as a', 'a.id', 'g.account_id')
    .innerJoin('grant_rounds as r', 'r.id', 'g.round_id')
    .select([
      'g.id',
      'g.status',
      'g.lodgement_reference',
      'g.amount_cents',
      'g.advised_at',
      'g.rcti_number',
      'a.name as club_name',
      'a.member_number',
      'a.gst_registered',
      'r.number as round_number',
      'r.status as round_status',
    ])
    .where('g.lodgement_reference', '=', lodgementReference)
    .executeTakeFirst();
}

/** Paid grants whose advice waits for a finance contact, oldest first. */
export function grantsAwaitingAdvice(db: Kysely<DB>, limit: number) {
  return db
    .selectFrom('grants as g')
    .innerJoin('accounts as a', 'a.id', 'g.account_id')
    .innerJoin('grant_rounds as r', 'r.id', 'g.round_id')
    .select([
      'g.lodgement_reference',
      'g.amount_cents',
      'a.name as club_name',
      'a.member_number',
      'r.number as round_number',
      'r.paid_at',
    ])
    .where('g.status', '=', 'paid')
    .where('r.status', '=', 'paid')
    .where('g.advised_at', 'is', null)
    .orderBy('r.paid_at')
    .orderBy('g.lodgement_reference')
    .limit(limit)
    .execute();
}

export function clubByMember(db: Kysely<DB>, memberNumber: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'name', 'member_number', 'gst_registered'])
    .where('member_number', '=', memberNumber)
    .executeTakeFirst();
}

/** A club's grants (paid, held, returned), newest round first. */
export function grantsOfClub(db: Kysely<DB>, accountId: string, limit: number) {
  return db
    .selectFrom('grants as g')
    .innerJoin('grant_rounds as r', 'r.id', 'g.round_id')
    .select([
      'r.number as round_number',
      'g.status',
      'g.hold_reason',
      'g.amount_cents',
      'g.lodgement_reference',
      'g.advised_at',
      'g.rcti_number',
    ])
    .where('g.account_id', '=', accountId)
    .orderBy('r.number', 'desc')
    .limit(limit)
    .execute();
}
