import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../api-errors.js';
import type { Account, DB, Product } from '../infrastructure/db/schema.js';
import { findAccountWithProduct, findProduct } from '../infrastructure/repositories/accounts.js';

export const ACTIVATED = 'Activated';

export type EnrolmentCheck =
  | { enrolled: true; account: Account; product: Product }
  | { enrolled: false; account: Account | undefined; reason: string };

export type Enrolled = Extract<EnrolmentCheck, { enrolled: true }>;

/**
 * Active enrolment (docs/decisions/0008-active-enrolment-is-an-activated-product.md): the account has a product
 * for the channel whose status is `Activated`.
 * The reason names the fundraiser id and the product, as the spec's cause does. One query (account and product
 * joined), uncached; `requireEnrolment` is the cached form every endpoint uses.
 */
export async function checkEnrolment(db: Kysely<DB>, fundraiserId: string, channel: string): Promise<EnrolmentCheck> {
  const found = await findAccountWithProduct(db, fundraiserId, channel);
  if (!found)
    return {
      enrolled: false,
      account: undefined,
      reason: `Fundraiser ${fundraiserId} not found for product ${channel}`,
    };
  return evaluate(found.account, found.product, fundraiserId, channel);
}

/** The same check for an account already found by `fundraiserId`. */
export async function checkAccountEnrolment(
  db: Kysely<DB>,
  account: Account,
  fundraiserId: string,
  channel: string,
): Promise<EnrolmentCheck> {
  return evaluate(account, await findProduct(db, account.id, channel), fundraiserId, channel);
}

function evaluate(
  account: Account,
  product: Product | undefined,
  fundraiserId: string,
  channel: string,
): EnrolmentCheck {
  if (!product)
    return { enrolled: false, account, reason: `Fundraiser ${fundraiserId} is not enrolled in product ${channel}` };
  if (product.status !== ACTIVATED) {
    return {
      enrolled: false,
      account,
      reason: `Fundraiser ${fundraiserId} product ${channel} is not activated (status ${product.status})`,
    };
  }
  return { enrolled: true, account, product };
}

/**
 * How long a confirmed enrolment is trusted (GET /fundraisers, GET /accounts/{id}, donations, mandates) before the
 * database is asked again. Bounded staleness: a product deactivated (by any process: the CLI, another instance) is
 * still seen as enrolled by this instance for at most this long — reads and writes agree, since they share the
 * answer. Only positive answers are kept, so a newly activated fundraiser is seen at once and unknown ids never
 * fill the cache. During a database outage a fundraiser confirmed within this window still answers from memory.
 */
export const ENROLMENT_CACHE_TTL_MS = 5_000;
const ENROLMENT_CACHE_MAX = 10_000;

/**
 * Confirmed enrolments of one application (the composition root makes one per context): two applications in one
 * process, even on the same database, never share answers.
 */
export class EnrolmentCache {
  private readonly confirmed = new LRUCache<string, Enrolled>({
    max: ENROLMENT_CACHE_MAX,
    ttl: ENROLMENT_CACHE_TTL_MS,
  });

  /** A confirmed enrolment of at most ENROLMENT_CACHE_TTL_MS ago, if any. */
  get(fundraiserId: string, channel: string): Enrolled | undefined {
    return this.confirmed.get(cacheKey(fundraiserId, channel));
  }

  remember(fundraiserId: string, channel: string, enrolled: Enrolled): void {
    this.confirmed.set(cacheKey(fundraiserId, channel), enrolled);
  }
}

const cacheKey = (fundraiserId: string, channel: string) => `${channel}\u0000${fundraiserId}`;

/**
 * The enrolment, or 400 FUNDRAISER:VALIDATION `Fundraiser Validation Unsuccessful`. Served from the confirmed-
 * enrolment cache when possible (see ENROLMENT_CACHE_TTL_MS): it runs before every donation and mandate, and
 * without it the look-up would cost as many round trips as the write itself.
 */
export async function requireEnrolment(
  db: Kysely<DB>,
  enrolments: EnrolmentCache,
  fundraiserId: string,
  channel: string,
): Promise<Enrolled> {
  const cached = enrolments.get(fundraiserId, channel);
  if (cached) return cached;
  const check = await checkEnrolment(db, fundraiserId, channel);
  if (!check.enrolled) throw new ApiError('FUNDRAISER_NOT_ENROLLED', check.reason);
  enrolments.remember(fundraiserId, channel, check);
  return check;
}
