import type { Kysely } from 'kysely';
import type { DB, NewDonation } from '../infrastructure/db/schema.js';
import {
  insertDonationOnce,
  insertDonationsOnce,
  type StoredDonation,
} from '../infrastructure/repositories/donations.js';
import type { GroupStatements, RowWriter } from './group-commit.js';

/** Stores one donation once (the natural key of docs/decisions/0012-idempotent-retries.md) and says what is stored. */
export type DonationWriter = RowWriter<NewDonation, StoredDonation>;

/**
 * How donations are written, alone or sharing one statement (GroupCommit). The natural key decides between
 * duplicates in a group as it does between requests: insertDonationsOnce answers each row with the donation stored
 * for its key.
 */
export const donationStatements = (db: Kysely<DB>): GroupStatements<NewDonation, StoredDonation> => ({
  many: (donations) => insertDonationsOnce(db, donations),
  one: (donation) => insertDonationOnce(db, donation),
});
