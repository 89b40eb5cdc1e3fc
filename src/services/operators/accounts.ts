import {
  listAccountSummaries,
  listProductsOf,
  updateProductStatus,
  type AccountSummary,
} from '../../infrastructure/repositories/account-admin.js';
import { findAccount, findProduct } from '../../infrastructure/repositories/accounts.js';
import type { Account, Product } from '../../infrastructure/db/schema.js';
import { ACTIVATED } from '../enrolment.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import { ConflictError, InvalidInputError, NotFoundError } from './operator-errors.js';

export type { AccountSummary };

export interface AccountDetail {
  account: Account;
  products: Product[];
}

export function listAccounts(
  ctx: OperatorContext,
  filter: { search?: string; channel?: string; limit: number },
): Promise<AccountSummary[]> {
  return listAccountSummaries(ctx.db, filter);
}

/** An account by member number or CRM id (15 or 18 characters), as the API finds it, with all its products. */
export async function showAccount(ctx: OperatorContext, id: string): Promise<AccountDetail> {
  const account = await findAccount(ctx.db, id);
  if (!account) throw new NotFoundError(`No account with member number or CRM id ${JSON.stringify(id)}.`);
  return { account, products: await listProductsOf(ctx.db, account.id) };
}

/**
 * Changes a product's status. Only "Activated" is an active enrolment
 * (docs/decisions/0008-active-enrolment-is-an-activated-product.md): any other status stops the fundraiser being
 * offered on that channel within ENROLMENT_CACHE_TTL_MS, the time an instance trusts a confirmed enrolment
 * (docs/decisions/0009-cache-confirmed-enrolments-and-credentials-briefly.md).
 */
export async function setProductStatus(
  ctx: OperatorContext,
  id: string,
  channel: string,
  change: { status: string; enrollmentStatus?: string },
): Promise<AccountDetail> {
  const status = change.status.trim();
  if (status === '') throw new InvalidInputError('The status must not be blank.');
  if (status !== ACTIVATED && status.toLowerCase() === ACTIVATED.toLowerCase()) {
    throw new InvalidInputError(`Write "${ACTIVATED}" exactly: only that spelling counts as an active enrolment.`);
  }
  const { account } = await showAccount(ctx, id);
  const product = await findProduct(ctx.db, account.id, channel);
  if (!product)
    throw new NotFoundError(`Account ${account.member_number} has no product for channel ${JSON.stringify(channel)}.`);
  if (
    product.status === status &&
    (!change.enrollmentStatus || change.enrollmentStatus === product.enrollment_status)
  ) {
    throw new ConflictError(`The ${channel} product of ${account.member_number} is already ${JSON.stringify(status)}.`);
  }
  await inTransaction(ctx, async (tx) => {
    await updateProductStatus(
      tx.db,
      account.id,
      channel,
      { status, enrollmentStatus: change.enrollmentStatus },
      tx.now(),
    );
    await audit(tx, AuditActions.productStatus, account.member_number, {
      channel,
      status: { from: product.status, to: status },
      ...(change.enrollmentStatus
        ? { enrollmentStatus: { from: product.enrollment_status, to: change.enrollmentStatus } }
        : {}),
    });
  });
  return showAccount(ctx, account.member_number);
}
