import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../db/schema.js';
import type { ConsoleOperatorsTable } from '../db/schema-console.js';

/** Console operator accounts and their sessions (migration 015). */
export type ConsoleOperator = Selectable<ConsoleOperatorsTable>;

export interface SessionRow {
  operatorId: string;
  email: string;
  role: 'admin' | 'viewer';
  csrfToken: string;
  expiresAt: Date;
}

export async function findOperatorByEmail(db: Kysely<DB>, email: string): Promise<ConsoleOperator | undefined> {
  return db.selectFrom('console_operators').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function listOperators(db: Kysely<DB>): Promise<ConsoleOperator[]> {
  return db.selectFrom('console_operators').selectAll().orderBy('email').execute();
}

export async function insertOperator(
  db: Kysely<DB>,
  operator: { email: string; role: 'admin' | 'viewer'; passwordHash: string },
): Promise<ConsoleOperator> {
  return db
    .insertInto('console_operators')
    .values({ email: operator.email, role: operator.role, password_hash: operator.passwordHash })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateOperator(
  db: Kysely<DB>,
  id: string,
  changes: Partial<{
    passwordHash: string;
    status: 'active' | 'disabled';
    role: 'admin' | 'viewer';
    failedLogins: number;
    lockedUntil: Date | null;
  }>,
  at: Date,
): Promise<void> {
  await db
    .updateTable('console_operators')
    .set({
      ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      ...(changes.role !== undefined ? { role: changes.role } : {}),
      ...(changes.failedLogins !== undefined ? { failed_logins: changes.failedLogins } : {}),
      ...(changes.lockedUntil !== undefined ? { locked_until: changes.lockedUntil } : {}),
      updated_at: at,
    })
    .where('id', '=', id)
    .execute();
}

/** Counts one failed sign-in and returns the new count, atomically (two browsers guessing at once both count). */
export async function countFailedLogin(db: Kysely<DB>, id: string): Promise<number> {
  const row = await db
    .updateTable('console_operators')
    .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
    .where('id', '=', id)
    .returning('failed_logins')
    .executeTakeFirstOrThrow();
  return row.failed_logins;
}

export async function insertSession(
  db: Kysely<DB>,
  session: { tokenHash: string; operatorId: string; csrfToken: string; at: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('console_sessions')
    .values({
      token_hash: session.tokenHash,
      operator_id: session.operatorId,
      csrf_token: session.csrfToken,
      created_at: session.at,
      last_seen_at: session.at,
      expires_at: session.expiresAt,
    })
    .execute();
}

/** A live session of an active operator, or undefined. */
export async function findSession(db: Kysely<DB>, tokenHash: string, now: Date): Promise<SessionRow | undefined> {
  return db
    .selectFrom('console_sessions as s')
    .innerJoin('console_operators as o', 'o.id', 's.operator_id')
    .select(['o.id as operatorId', 'o.email', 'o.role', 's.csrf_token as csrfToken', 's.expires_at as expiresAt'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now)
    .where('o.status', '=', 'active')
    .executeTakeFirst();
}

/** Slides an idle session's expiry forward. */
export async function extendSession(db: Kysely<DB>, tokenHash: string, at: Date, expiresAt: Date): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ last_seen_at: at, expires_at: expiresAt })
    .where('token_hash', '=', tokenHash)
    .execute();
}

export async function deleteSession(db: Kysely<DB>, tokenHash: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Ends every session of an operator (disabled, or password reset), and expired ones of anyone. */
export async function deleteSessionsOf(db: Kysely<DB>, operatorId: string, now: Date): Promise<void> {
  await db
    .deleteFrom('console_sessions')
    .where((eb) => eb.or([eb('operator_id', '=', operatorId), eb('expires_at', '<=', now)]))
    .execute();
}
