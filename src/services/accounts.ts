import type { Kysely } from 'kysely';
import { centsToAmount } from '../domain/money.js';
import { ApiError } from '../api-errors.js';
import type { Account, DB, Product } from '../infrastructure/db/schema.js';
import { findAccount } from '../infrastructure/repositories/accounts.js';
import { checkAccountEnrolment, requireEnrolment, type Enrolled, type EnrolmentCache } from './enrolment.js';

/**
 * Account details with the product of the requested channel (section 4.9): only a product activated for the
 * channel is returned, so a known account without one answers with `products: []`; an unknown id is 404
 * `ACCOUNT:NOT_FOUND` (the spec's 400 belongs to /fundraisers and /donations only). Answered at once, without a
 * promise, from a confirmed enrolment in the cache (see `validateFundraiser`).
 */
export function getAccount(
  db: Kysely<DB>,
  enrolments: EnrolmentCache,
  id: string,
  channel: string,
): AccountView | Promise<AccountView> {
  const cached = enrolments.get(id, channel);
  if (cached) return viewOf(cached);
  return lookUpAccount(db, enrolments, id, channel).then(accountView);
}

type AccountView = ReturnType<typeof accountView>;

function accountView({ account, product }: { account: Account; product: Product | null }) {
  return {
    name: account.name,
    memberNumber: account.member_number,
    ...(account.abn ? { abn: account.abn } : {}),
    products: product ? [productRecord(product)] : [],
  };
}

/**
 * The views of cached enrolments, made once per cache entry: an entry's rows never change, the serializer only
 * reads a view, and building it again (amounts converted, the product copied) was garbage on every request.
 */
const accountViews = new WeakMap<Enrolled, AccountView>();
const summaries = new WeakMap<Enrolled, FundraiserSummary>();

function viewOf(enrolled: Enrolled): AccountView {
  let view = accountViews.get(enrolled);
  if (!view) accountViews.set(enrolled, (view = accountView(enrolled)));
  return view;
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

/**
 * FundraiserSummary (section 2.11) of an active enrolment. Answered at once, without a promise or a turn of the event
 * loop, when the enrolment is confirmed in the cache, as it is for nearly every request
 * (docs/performance/request-path.md).
 */
export function validateFundraiser(
  db: Kysely<DB>,
  enrolments: EnrolmentCache,
  id: string,
  channel: string,
): FundraiserSummary | Promise<FundraiserSummary> {
  const cached = enrolments.get(id, channel);
  if (!cached) return requireEnrolment(db, enrolments, id, channel).then((check) => summaryOf(check, id));
  let summary = summaries.get(cached);
  // An entry is kept under the id it was looked up by; the check of the id is for safety, not expected to fail.
  if (summary?.fundraiserId !== id) summaries.set(cached, (summary = summaryOf(cached, id)));
  return summary;
}

type FundraiserSummary = ReturnType<typeof summaryOf>;

function summaryOf(check: Enrolled, id: string) {
  return {
    name: check.account.name,
    fundraiserId: id,
    productEnrollmentId: check.product.product_enrollment_id ?? '',
    status: check.product.enrollment_status,
  };
}
