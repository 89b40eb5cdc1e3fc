import { randomBytes } from 'node:crypto';
import type { Config } from '../../config/index.js';
import { webhookSecretKey } from '../../config/webhooks.js';
import { isPortalRole, type PortalRole } from '../../domain/portal-roles.js';
import {
  deleteUserPortalSessions,
  findPartnerPortalUser,
  findPortalUserByEmail,
  insertPortalUser,
  listPortalUsers,
  replaceRecoveryCodes,
  updatePortalUser,
  type PortalUserRow,
} from '../../infrastructure/repositories/portal-users.js';
import { enqueueMail } from '../mail/outbox.js';
import { AuditActions, audit } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../operators/operator-errors.js';
import { TotpSecrets, hashToken } from './totp.js';

/**
 * Partner users (docs/portal.md, docs/decisions/0086-portal-users-and-invitations.md): invited by an operator or the
 * partner's admin with a one-time link by mail, accepted with a password and a TOTP enrolment; roles changed and
 * users removed, each ending the user's sessions. Every change is audited with its actor (an operator, or
 * `portal:<email>`). A user of another partner is not found, exactly like an unknown id.
 */
export interface PortalUserSettings {
  invitationMs: number;
  /** Where the portal is: the invitation link's base. */
  portalUrl: string;
  secrets: TotpSecrets;
}

export const portalUserSettings = (config: Config): PortalUserSettings => ({
  invitationMs: config.PORTAL_INVITATION_HOURS * 3_600_000,
  // The portal is mounted at the origin's /portal, outside the API's BASE_PATH.
  portalUrl: `${config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`}/portal`,
  secrets: new TotpSecrets(webhookSecretKey(config)),
});

export type { PortalUserRow };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NOT_FOUND = 'There is no such user.';

export async function listUsers(ctx: OperatorContext, partnerId: string): Promise<PortalUserRow[]> {
  return listPortalUsers(ctx.db, partnerId);
}

/** Invites (or invites again) a person; the link leaves through the mail outbox with the change. */
export async function inviteUser(
  ctx: OperatorContext,
  settings: PortalUserSettings,
  partner: { id: string; name: string },
  input: { email: string; role: string },
): Promise<PortalUserRow> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254) throw new InvalidInputError('email: must be an e-mail address.');
  const role = requireRole(input.role);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(ctx.now().getTime() + settings.invitationMs);
  return inTransaction(ctx, async (tx) => {
    const existing = await findPortalUserByEmail(tx.db, email);
    if (existing && (existing.partner_id !== partner.id || existing.status === 'active'))
      // The same words whoever holds the address, so a partner learns nothing of another's users.
      throw new ConflictError(`email: ${email} already has a portal account; it cannot be invited.`);
    let id: string;
    if (existing) {
      id = existing.id;
      await updatePortalUser(
        tx.db,
        id,
        {
          role,
          status: 'invited',
          passwordHash: null,
          totpSecret: null,
          inviteTokenHash: hashToken(token),
          inviteExpiresAt: expiresAt,
        },
        ctx.now(),
      );
    } else {
      const row = await insertPortalUser(tx.db, {
        partnerId: partner.id,
        email,
        role,
        invitedBy: ctx.operator,
        inviteTokenHash: hashToken(token),
        inviteExpiresAt: expiresAt,
      });
      id = row.id;
    }
    await audit(tx, AuditActions.portalUserInvite, partner.id, { partner: partner.name, user: id, role });
    await enqueueMail(tx.db, invitationMail(settings, partner.name, email, role, token, expiresAt));
    return (await findPartnerPortalUser(tx.db, partner.id, id))!;
  });
}

function invitationMail(
  settings: PortalUserSettings,
  partnerName: string,
  email: string,
  role: PortalRole,
  token: string,
  expiresAt: Date,
) {
  const link = `${settings.portalUrl}/invitation/${token}`;
  return {
    kind: 'portal-invitation',
    recipient: email,
    subject: `You are invited to ${partnerName}'s partner portal`,
    text: [
      `You are invited to the foundation's partner portal for ${partnerName}, as ${role}.`,
      '',
      `Open this link to choose a password and set up your authenticator app (it works once, until`,
      `${expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}):`,
      '',
      link,
      '',
      'If you did not expect this invitation, ignore this message.',
    ].join('\n'),
    html: null,
    about: `portal-user:${email}`,
  };
}

export async function changeRole(
  ctx: OperatorContext,
  partnerId: string,
  userId: string,
  roleInput: string,
  actorUserId?: string,
): Promise<PortalUserRow> {
  const role = requireRole(roleInput);
  if (userId === actorUserId) throw new ConflictError('You cannot change your own role; ask another admin.');
  return inTransaction(ctx, async (tx) => {
    const user = await requireUser(tx, partnerId, userId);
    if (user.role === role) return user;
    await updatePortalUser(tx.db, user.id, { role }, ctx.now());
    await deleteUserPortalSessions(tx.db, user.id);
    await audit(tx, AuditActions.portalUserRole, partnerId, { user: user.id, from: user.role, to: role });
    return { ...user, role };
  });
}

export async function removeUser(
  ctx: OperatorContext,
  partnerId: string,
  userId: string,
  actorUserId?: string,
): Promise<PortalUserRow> {
  if (userId === actorUserId) throw new ConflictError('You cannot remove yourself; ask another admin.');
  return inTransaction(ctx, async (tx) => {
    const user = await requireUser(tx, partnerId, userId);
    await updatePortalUser(
      tx.db,
      user.id,
      { status: 'removed', passwordHash: null, totpSecret: null, inviteTokenHash: null, inviteExpiresAt: null },
      ctx.now(),
    );
    await deleteUserPortalSessions(tx.db, user.id);
    await replaceRecoveryCodes(tx.db, user.id, []);
    await audit(tx, AuditActions.portalUserRemove, partnerId, { user: user.id, role: user.role });
    return user;
  });
}

async function requireUser(ctx: OperatorContext, partnerId: string, userId: string): Promise<PortalUserRow> {
  const user = await findPartnerPortalUser(ctx.db, partnerId, userId);
  if (!user || user.status === 'removed') throw new NotFoundError(NOT_FOUND);
  return user;
}

function requireRole(role: string): PortalRole {
  if (!isPortalRole(role)) throw new InvalidInputError('role: must be one of admin, developer, finance, read-only.');
  return role;
}
