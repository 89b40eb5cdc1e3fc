import type { Kysely } from 'kysely';
import type { DB, NewDonation } from '../infrastructure/db/schema.js';
import {
  insertDonationOnce,
  insertDonationsOnce,
  type StoredDonation,
} from '../infrastructure/repositories/donations.js';
import { directWriter, GroupCommit, type GroupCommitSettings, type RowWriter } from './group-commit.js';

/** Stores one donation once (DESIGN.md §10's natural key) and says what is stored. */
export type DonationWriter = RowWriter<NewDonation, StoredDonation>;

/** One statement per donation: what group commit turned off means. */
export const directDonationWriter = (db: Kysely<DB>): DonationWriter =>
  directWriter((donation) => insertDonationOnce(db, donation));

/**
 * Donations arriving together share one statement (GroupCommit). The natural key decides between duplicates in a
 * group as it does between requests: insertDonationsOnce answers each row with the donation stored for its key.
 */
export const donationGroupCommit = (db: Kysely<DB>, settings: GroupCommitSettings): DonationWriter =>
  new GroupCommit(
    { many: (donations) => insertDonationsOnce(db, donations), one: (donation) => insertDonationOnce(db, donation) },
    settings,
  );
