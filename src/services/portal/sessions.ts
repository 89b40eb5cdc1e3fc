import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PortalRole } from '../../domain/portal-roles.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  claimTotpStep,
  deletePortalSession,
  extendPortalSession,
  findPortalSession,
  findPortalUserByEmail,
  insertPortalSession,
  useRecoveryCode,
  verifyPortalSession,
} from '../../infrastructure/repositories/portal-users.js';
import { decoyHash, verifyPassword } from '../console/passwords.js';
import { hashRecoveryCode, hashToken, totpStep, type TotpSecrets } from './totp.js';

/**
 * Partner users' sign-in and sessions, as the console's (services/console/sessions.ts): a random 256-bit token in an
 * HttpOnly cookie, its SHA-256 in the database with the session's CSRF token. Sign-in is two steps: the password
 * opens a half session that only the second step accepts; a TOTP code (each time step once) or an unused recovery
 * code makes it a session under a new token. Accounts are never locked: the sign-in is throttled by source address
 * (the portal's AuthThrottle), so nobody can lock a partner's people out by guessing at their e-mail.
 */
export interface PortalSessionSettings {
  /** Idle time after which a session ends. */
  idleMs: number;
  /** A session ends this long after sign-in, however busy. */
  absoluteMs: number;
  /** How long the second step may take. */
  secondStepMs: number;
}

export interface PortalSession {
  userId: string;
  email: string;
  partnerId: string;
  partnerName: string;
  role: PortalRole;
  csrfToken: string;
}

export type SignInResult = { pendingToken: string; csrfToken: string } | { refused: 'credentials' };
export type SecondStepResult =
  { token: string; session: PortalSession; recoveryCodeUsed: boolean } | { refused: 'code' | 'expired' };

const newToken = () => randomBytes(32).toString('base64url');

export class PortalSessions {
  private decoy?: Promise<string>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: PortalSessionSettings,
    private readonly secrets: TotpSecrets,
    private readonly now: () => Date,
  ) {}

  /** The first step: e-mail and password. */
  async signIn(emailInput: string, password: string): Promise<SignInResult> {
    const now = this.now();
    const user = await findPortalUserByEmail(this.db, emailInput.trim().toLowerCase());
    if (!user || user.status !== 'active' || !user.password_hash || !user.totp_secret) {
      // The same work as for a real account, so the response time does not tell which e-mails exist.
      this.decoy ??= decoyHash();
      await verifyPassword(password, await this.decoy);
      return { refused: 'credentials' };
    }
    if (!(await verifyPassword(password, user.password_hash))) return { refused: 'credentials' };
    const pendingToken = newToken();
    const csrfToken = newToken();
    await insertPortalSession(this.db, {
      tokenHash: hashToken(pendingToken),
      userId: user.id,
      csrfToken,
      at: now,
      expiresAt: new Date(now.getTime() + this.settings.secondStepMs),
      absoluteExpiresAt: new Date(now.getTime() + this.settings.absoluteMs),
    });
    return { pendingToken, csrfToken };
  }

  /** The half session of the first step, for the second step's form; null when it ended. */
  async pending(pendingToken: string): Promise<{ csrfToken: string; email: string } | null> {
    const row = await findPortalSession(this.db, hashToken(pendingToken), this.now());
    return row && !row.verifiedAt ? { csrfToken: row.csrfToken, email: row.email } : null;
  }

  /** The second step: a TOTP code or a recovery code. */
  async secondStep(pendingToken: string, code: string): Promise<SecondStepResult> {
    const now = this.now();
    const oldHash = hashToken(pendingToken);
    const row = await findPortalSession(this.db, oldHash, now);
    if (!row || row.verifiedAt) return { refused: 'expired' };
    const user = await findPortalUserByEmail(this.db, row.email);
    if (!user?.totp_secret) return { refused: 'expired' };
    const accepted = await this.codeAccepted(user.id, user.totp_secret, code, now);
    if (!accepted) return { refused: 'code' };
    const token = newToken();
    const verified = await verifyPortalSession(
      this.db,
      oldHash,
      hashToken(token),
      now,
      new Date(now.getTime() + this.settings.idleMs),
    );
    if (!verified) return { refused: 'expired' };
    const { verifiedAt: _v, expiresAt: _e, ...session } = row;
    return { token, session, recoveryCodeUsed: accepted === 'recovery' };
  }

  /** Which kind of code was accepted, or null. */
  private async codeAccepted(
    userId: string,
    sealed: string,
    code: string,
    now: Date,
  ): Promise<'totp' | 'recovery' | null> {
    const step = totpStep(this.secrets.open(sealed, userId), code, now);
    if (step !== null) return (await claimTotpStep(this.db, userId, step)) ? 'totp' : null;
    const trimmed = code.trim();
    if (trimmed.length < 16) return null;
    return (await useRecoveryCode(this.db, userId, hashRecoveryCode(trimmed), now)) ? 'recovery' : null;
  }

  /** The session of a cookie's token, sliding its idle expiry forward (at most once a minute, to spare writes). */
  async resolve(token: string): Promise<PortalSession | null> {
    const now = this.now();
    const tokenHash = hashToken(token);
    const row = await findPortalSession(this.db, tokenHash, now);
    if (!row?.verifiedAt) return null;
    const expiresAt = new Date(now.getTime() + this.settings.idleMs);
    if (expiresAt.getTime() - row.expiresAt.getTime() > 60_000)
      await extendPortalSession(this.db, tokenHash, now, expiresAt);
    const { verifiedAt: _v, expiresAt: _e, ...session } = row;
    return session;
  }

  async signOut(token: string): Promise<void> {
    await deletePortalSession(this.db, hashToken(token));
  }
}
