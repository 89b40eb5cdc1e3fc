import { sameSecret } from '../../domain/constant-time.js';
import {
  claimTotpStep,
  findPortalUserByInvite,
  replaceRecoveryCodes,
  updatePortalUser,
  type PortalUserRow,
} from '../../infrastructure/repositories/portal-users.js';
import { hashPassword } from '../console/passwords.js';
import { AuditActions, audit } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { InvalidInputError } from '../operators/operator-errors.js';
import { passwordWeakness } from './password-strength.js';
import { hashRecoveryCode, hashToken, newRecoveryCodes, newTotpSecret, totpQrSvg, totpStep, totpUri } from './totp.js';
import type { PortalUserSettings } from './users.js';

/*
 * An invitation accepted (docs/decisions/0086-portal-users-and-invitations.md): the one-time link opened, a password
 * chosen, the authenticator app enrolled by a code from it, and the recovery codes returned to be shown once.
 */

/** An invitation's link still usable: its user, or null (unknown, used, expired: one answer for all). */
export async function openInvitation(ctx: OperatorContext, token: string): Promise<PortalUserRow | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const user = await findPortalUserByInvite(ctx.db, hashToken(token));
  if (!user || user.status !== 'invited' || !user.invite_expires_at || user.invite_expires_at <= ctx.now()) return null;
  return user;
}

/** The first step of acceptance: the password, and a new TOTP secret to enrol (sealed until confirmed). */
export async function choosePassword(
  ctx: OperatorContext,
  settings: PortalUserSettings,
  user: PortalUserRow,
  password: string,
  confirmation: string,
): Promise<void> {
  if (!sameSecret(password, confirmation)) throw new InvalidInputError('password: the two passwords differ.');
  const weakness = passwordWeakness(password, [user.email, ...user.email.split(/[@.]/), user.partner_name]);
  if (weakness) throw new InvalidInputError(`password: ${weakness}`);
  await updatePortalUser(
    ctx.db,
    user.id,
    { passwordHash: await hashPassword(password), totpSecret: settings.secrets.seal(newTotpSecret(), user.id) },
    ctx.now(),
  );
}

/** What the enrolment step shows: the secret, its otpauth:// URI and its QR code. */
export function enrolment(settings: PortalUserSettings, user: PortalUserRow) {
  const secret = settings.secrets.open(user.totp_secret!, user.id);
  const uri = totpUri(user.email, secret);
  return { secret, uri, qrSvg: totpQrSvg(uri) };
}

/**
 * The last step: a code from the app proves the enrolment; the user becomes active, the link is spent, and the
 * recovery codes are returned to be shown once (only their hashes are kept).
 */
export async function confirmEnrolment(
  ctx: OperatorContext,
  settings: PortalUserSettings,
  user: PortalUserRow,
  code: string,
): Promise<string[]> {
  const { secret } = enrolment(settings, user);
  const step = totpStep(secret, code, ctx.now());
  if (step === null) throw new InvalidInputError('code: that code does not match; type the one your app shows now.');
  const codes = newRecoveryCodes();
  await inTransaction({ ...ctx, operator: `portal:${user.email}` }, async (tx) => {
    // The code that proved the enrolment cannot sign in as well.
    await claimTotpStep(tx.db, user.id, step);
    await updatePortalUser(
      tx.db,
      user.id,
      { status: 'active', inviteTokenHash: null, inviteExpiresAt: null },
      ctx.now(),
    );
    await replaceRecoveryCodes(tx.db, user.id, codes.map(hashRecoveryCode));
    await audit(tx, AuditActions.portalUserAccept, user.partner_id, { user: user.id, role: user.role });
  });
  return codes;
}
