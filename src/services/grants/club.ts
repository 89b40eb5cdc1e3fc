import type { Account } from '../../infrastructure/db/schema.js';
import { findAccount } from '../../infrastructure/repositories/accounts.js';
import type { OperatorContext } from '../operators/context.js';
import { NotFoundError } from '../operators/operator-errors.js';

/** A club (a fundraiser account) by member number or CRM id, as every grants command names it. */
export async function requireClub(ctx: OperatorContext, id: string): Promise<Account> {
  const account = await findAccount(ctx.db, id.trim());
  if (!account) throw new NotFoundError(`No fundraiser account with member number or CRM id ${JSON.stringify(id)}.`);
  return account;
}
