import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  countFailedLogin,
  deleteSession,
  extendSession,
  findOperatorByEmail,
  findSession,
  insertSession,
  updateOperator,
} from '../../infrastructure/repositories/console-operators.js';
import type { ConsoleRole } from './operator-accounts.js';
import { decoyHash, verifyPassword } from './passwords.js';

/**
 * Console sign-in and sessions. A session is a random 256-bit token in an HttpOnly cookie; the database keeps its
 * SHA-256 with the operator and the session's CSRF token, so every instance sees the same sessions and signing
 * out (or disabling the operator) ends a session everywhere at once.
 */
export interface SessionSettings {
  /** Idle time after which a session ends. */
  ttlMs: number;
  /** Consecutive failed sign-ins that lock the account ... */
  maxFailures: number;
  /** ... for this long. */
  lockMs: number;
}

export interface ConsoleSession {
  email: string;
  role: ConsoleRole;
  csrfToken: string;
}

export type LoginResult = { token: string; session: ConsoleSession } | { refused: 'credentials' | 'locked' };

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export class ConsoleSessions {
  private decoy?: Promise<string>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: SessionSettings,
    private readonly now: () => Date,
  ) {}

  async login(emailInput: string, password: string): Promise<LoginResult> {
    const now = this.now();
    const operator = await findOperatorByEmail(this.db, emailInput.trim().toLowerCase());
    if (!operator || operator.status !== 'active') {
      // The same work as for a real account, so the response time does not tell which e-mails exist.
      this.decoy ??= decoyHash();
      await verifyPassword(password, await this.decoy);
      return { refused: 'credentials' };
    }
    if (operator.locked_until && operator.locked_until > now) return { refused: 'locked' };
    if (!(await verifyPassword(password, operator.password_hash))) {
      const failures = await countFailedLogin(this.db, operator.id);
      if (failures >= this.settings.maxFailures) {
        const lockedUntil = new Date(now.getTime() + this.settings.lockMs);
        await updateOperator(this.db, operator.id, { failedLogins: 0, lockedUntil }, now);
        return { refused: 'locked' };
      }
      return { refused: 'credentials' };
    }
    if (operator.failed_logins > 0 || operator.locked_until)
      await updateOperator(this.db, operator.id, { failedLogins: 0, lockedUntil: null }, now);
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    await insertSession(this.db, {
      tokenHash: hashToken(token),
      operatorId: operator.id,
      csrfToken,
      at: now,
      expiresAt: new Date(now.getTime() + this.settings.ttlMs),
    });
    return { token, session: { email: operator.email, role: operator.role, csrfToken } };
  }

  /** The session of a cookie's token, sliding its expiry forward (at most once a minute, to spare writes). */
  async resolve(token: string): Promise<ConsoleSession | null> {
    const now = this.now();
    const tokenHash = hashToken(token);
    const row = await findSession(this.db, tokenHash, now);
    if (!row) return null;
    const expiresAt = new Date(now.getTime() + this.settings.ttlMs);
    if (expiresAt.getTime() - row.expiresAt.getTime() > 60_000) await extendSession(this.db, tokenHash, now, expiresAt);
    return { email: row.email, role: row.role, csrfToken: row.csrfToken };
  }

  async logout(token: string): Promise<void> {
    await deleteSession(this.db, hashToken(token));
  }
}
