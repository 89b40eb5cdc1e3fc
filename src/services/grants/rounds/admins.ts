import type { Kysely } from 'kysely';
import type { DB } from '../../../infrastructure/db/schema.js';
import { findOperatorByEmail } from '../../../infrastructure/repositories/console-operators.js';
import { OperatorError } from '../../operators/operator-errors.js';

/**
 * Reviewing and approving a round are an admin's (docs/decisions/0064-grant-rounds-approved-by-a-second-admin.md):
 * the acting operator must be an active console operator with the admin role, whether they act in the console or
 * through the CLI (`--operator` their e-mail).
 */
export async function requireAdmin(db: Kysely<DB>, operator: string, doing: string): Promise<string> {
  const found = await findOperatorByEmail(db, operator.trim().toLowerCase());
  if (!found || found.status !== 'active' || found.role !== 'admin')
    throw new OperatorError(
      `${operator} cannot ${doing}: only an active console admin can (pass --operator with an admin's e-mail).`,
    );
  return found.email;
}
