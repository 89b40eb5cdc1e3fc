import type { Kysely } from 'kysely';
import { centsToAmount } from '../domain/money.js';
import { ApiError } from '../api-errors.js';
import type { DB, Product } from '../infrastructure/db/schema.js';
import { findAccount } from '../infrastructure/repositories/accounts.js';
import { checkAccountEnrolment, requireEnrolment, type EnrolmentCache } from './enrolment.js';

/**
 * Account details with the product of the requested channel (section 4.9): only a product activated for the
 * channel is returned, so a known account without one answers with `products: []`; an unknown id is 404
 * `ACCOUNT:NOT_FOUND` (the spec's 400 belongs to /fundraisers and /donations only).
 */
export async function getAccount(db: Kysely<DB>, enrolments: EnrolmentCache, id: string, channel: string) {
  const { account, product } = enrolments.get(id, channel) ?? (await lookUpAccount(db, enrolments, id, channel));
  return {
    name: account.name,
    memberNumber: account.member_number,
    ...(account.abn ? { abn: account.abn } : {}),
    products: product ? [productRecord(product)] : [],
  };
}

function productRecord(product: Product) {
  return {
    name: product.channel,
    description: product.description,
    status: product.status,
    logo: product.logo ?? '',
    coverImage: product.cover_image ?? '',
    donationAmounts: product.donation_amounts_cents.map(centsToAmount),
    story: product.story ?? '',
    campaigns: product.campaigns ?? {},
    ...(product.product_enrollment_id ? { productEnrollmentId: product.product_enrollment_id } : {}),
  };
}

/** Uncached: tells an unknown account (404) from one without an activated product for the channel (no product). */
async function lookUpAccount(db: Kysely<DB>, enrolments: EnrolmentCache, id: string, channel: string) {
  const account = await findAccount(db, id);
  if (!account) throw new ApiError('ACCOUNT_NOT_FOUND', `No account with ID ${id}`);
  const check = await checkAccountEnrolment(db, account, id, channel);
  if (!check.enrolled) return { account, product: null };
  enrolments.remember(id, channel, check);
  return check;
}

/** FundraiserSummary (section 2.11) of an active enrolment. */
export async function validateFundraiser(db: Kysely<DB>, enrolments: EnrolmentCache, id: string, channel: string) {
  const check = await requireEnrolment(db, enrolments, id, channel);
  return {
    name: check.account.name,
    fundraiserId: id,
    productEnrollmentId: check.product.product_enrollment_id ?? '',
    status: check.product.enrollment_status,
  };
}
