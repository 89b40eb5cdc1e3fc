import type { Kysely } from 'kysely';
import { ApiError } from '../errors.js';
import type { Account, DB, Product } from '../infrastructure/db/schema.js';
import { findAccount, findProduct } from '../infrastructure/repositories/accounts.js';

export const ACTIVATED = 'Activated';

export type EnrolmentCheck =
  | { enrolled: true; account: Account; product: Product }
  | { enrolled: false; account: Account | undefined; reason: string };

/**
 * Active enrolment (DESIGN.md §7): the account has a product for the channel whose status is `Activated`.
 * The reason names the fundraiser id and the product, as the spec's cause does.
 */
export async function checkEnrolment(db: Kysely<DB>, fundraiserId: string, channel: string): Promise<EnrolmentCheck> {
  const account = await findAccount(db, fundraiserId);
  if (!account) return { enrolled: false, account, reason: `Fundraiser ${fundraiserId} not found for product ${channel}` };
  return checkAccountEnrolment(db, account, fundraiserId, channel);
}

/** The same check for an account already found by `fundraiserId`. */
export async function checkAccountEnrolment(db: Kysely<DB>, account: Account, fundraiserId: string, channel: string): Promise<EnrolmentCheck> {
  const product = await findProduct(db, account.id, channel);
  if (!product) return { enrolled: false, account, reason: `Fundraiser ${fundraiserId} is not enrolled in product ${channel}` };
  if (product.status !== ACTIVATED) {
    return { enrolled: false, account, reason: `Fundraiser ${fundraiserId} product ${channel} is not activated (status ${product.status})` };
  }
  return { enrolled: true, account, product };
}

/** The enrolment, or 400 FUNDRAISER:VALIDATION `Fundraiser Validation Unsuccessful`. */
export async function requireEnrolment(db: Kysely<DB>, fundraiserId: string, channel: string) {
  const check = await checkEnrolment(db, fundraiserId, channel);
  if (!check.enrolled) throw new ApiError('FUNDRAISER_NOT_ENROLLED', check.reason);
  return check;
}
