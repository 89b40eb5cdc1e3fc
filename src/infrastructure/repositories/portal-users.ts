import type { Kysely, Selectable } from 'kysely';
import type { PortalRole } from '../../domain/portal-roles.js';
import type { DB } from '../db/schema.js';
import type { PortalUsersTable } from '../db/schema-portal.js';

/** The partner portal's users, recovery codes and sessions (migration 051). */
export type PortalUser = Selectable<PortalUsersTable>;

/** A user with its partner's name: what lists and sessions show. */
export type PortalUserRow = PortalUser & { partner_name: string };

const withPartner = (db: Kysely<DB>) =>
  db
    .selectFrom('portal_users as u')
    .innerJoin('partners as p', 'p.id', 'u.partner_id')
    .selectAll('u')
    .select('p.name as partner_name');

export async function insertPortalUser(
  db: Kysely<DB>,
  user: {
    partnerId: string;
    email: string;
    role: PortalRole;
    invitedBy: string;
    inviteTokenHash: string;
    inviteExpiresAt: Date;
  },
): Promise<PortalUser> {
  return db
    .insertInto('portal_users')
    .values({
      partner_id: user.partnerId,
      email: user.email,
      role: user.role,
      invited_by: user.invitedBy,
      invite_token_hash: user.inviteTokenHash,
      invite_expires_at: user.inviteExpiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findPortalUserByEmail(db: Kysely<DB>, email: string): Promise<PortalUserRow | undefined> {
  return withPartner(db).where('u.email', '=', email).executeTakeFirst();
}

/** A user of one partner: another partner's user is not found, exactly like an unknown id. */
export async function findPartnerPortalUser(
  db: Kysely<DB>,
  partnerId: string,
  id: string,
): Promise<PortalUserRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  return withPartner(db).where('u.partner_id', '=', partnerId).where('u.id', '=', id).executeTakeFirst();
}

export async function findPortalUserByInvite(db: Kysely<DB>, tokenHash: string): Promise<PortalUserRow | undefined> {
  return withPartner(db).where('u.invite_token_hash', '=', tokenHash).executeTakeFirst();
}

/** A partner's users who are not removed, by e-mail. */
export async function listPortalUsers(db: Kysely<DB>, partnerId: string): Promise<PortalUserRow[]> {
  return withPartner(db)
    .where('u.partner_id', '=', partnerId)
    .where('u.status', '!=', 'removed')
    .orderBy('u.email')
    .execute();
}

export async function updatePortalUser(
  db: Kysely<DB>,
  id: string,
  changes: Partial<{
    role: PortalRole;
    status: 'invited' | 'active' | 'removed';
    passwordHash: string | null;
    totpSecret: string | null;
    inviteTokenHash: string | null;
    inviteExpiresAt: Date | null;
  }>,
  at: Date,
): Promise<void> {
  await db
    .updateTable('portal_users')
    .set({
      ...(changes.role !== undefined ? { role: changes.role } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash } : {}),
      ...(changes.totpSecret !== undefined ? { totp_secret: changes.totpSecret, totp_last_step: null } : {}),
      ...(changes.inviteTokenHash !== undefined ? { invite_token_hash: changes.inviteTokenHash } : {}),
      ...(changes.inviteExpiresAt !== undefined ? { invite_expires_at: changes.inviteExpiresAt } : {}),
      updated_at: at,
    })
    .where('id', '=', id)
    .execute();
}

/** Accepts a TOTP time step once: false when this step (or a later one) was already used. */
export async function claimTotpStep(db: Kysely<DB>, id: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('portal_users')
    .set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step) as never)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function replaceRecoveryCodes(db: Kysely<DB>, userId: string, hashes: string[]): Promise<void> {
  await db.deleteFrom('portal_recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length > 0)
    await db
      .insertInto('portal_recovery_codes')
      .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
      .execute();
}

/** Uses a recovery code once: false when it is unknown or was used. */
export async function useRecoveryCode(db: Kysely<DB>, userId: string, hash: string, at: Date): Promise<boolean> {
  const row = await db
    .updateTable('portal_recovery_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export interface PortalSessionRow {
  userId: string;
  email: string;
  role: PortalRole;
  partnerId: string;
  partnerName: string;
  csrfToken: string;
  verifiedAt: Date | null;
  expiresAt: Date;
}

export async function insertPortalSession(
  db: Kysely<DB>,
  session: { tokenHash: string; userId: string; csrfToken: string; at: Date; expiresAt: Date; absoluteExpiresAt: Date },
): Promise<void> {
  await db
    .insertInto('portal_sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      csrf_token: session.csrfToken,
      created_at: session.at,
      last_seen_at: session.at,
      expires_at: session.expiresAt,
      absolute_expires_at: session.absoluteExpiresAt,
    })
    .execute();
}

/** A live session of an active user; null when it expired (idle or absolute), ended, or its user is gone. */
export async function findPortalSession(
  db: Kysely<DB>,
  tokenHash: string,
  now: Date,
): Promise<PortalSessionRow | undefined> {
  return db
    .selectFrom('portal_sessions as s')
    .innerJoin('portal_users as u', 'u.id', 's.user_id')
    .innerJoin('partners as p', 'p.id', 'u.partner_id')
    .select([
      'u.id as userId',
      'u.email as email',
      'u.role as role',
      'p.id as partnerId',
      'p.name as partnerName',
      's.csrf_token as csrfToken',
      's.expires_at as expiresAt',
    ])
    .select('s.verified_at as verifiedAt')
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now)
    .where('s.absolute_expires_at', '>', now)
    .where('u.status', '=', 'active')
    .executeTakeFirst();
}

export async function extendPortalSession(db: Kysely<DB>, tokenHash: string, at: Date, expiresAt: Date) {
  await db
    .updateTable('portal_sessions')
    .set({ last_seen_at: at, expires_at: expiresAt })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/** The second factor was given: the half sign-in becomes a session, under a new token (no fixation). */
export async function verifyPortalSession(
  db: Kysely<DB>,
  oldHash: string,
  newHash: string,
  at: Date,
  expiresAt: Date,
): Promise<boolean> {
  const row = await db
    .updateTable('portal_sessions')
    .set({ token_hash: newHash, verified_at: at, last_seen_at: at, expires_at: expiresAt })
    .where('token_hash', '=', oldHash)
    .where('verified_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deletePortalSession(db: Kysely<DB>, tokenHash: string): Promise<void> {
  await db.deleteFrom('portal_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Ends every session of a user (role changed, removed, password or second factor reset). */
export async function deleteUserPortalSessions(db: Kysely<DB>, userId: string): Promise<void> {
  await db.deleteFrom('portal_sessions').where('user_id', '=', userId).execute();
}

/** The e-mail of every user a partner ever had (removed ones too): the actors of its portal's audited changes. */
export async function listPortalUsersOfPartner(db: Kysely<DB>, partnerId: string): Promise<string[]> {
  const rows = await db.selectFrom('portal_users').select('email').where('partner_id', '=', partnerId).execute();
  return rows.map((r) => r.email);
}
