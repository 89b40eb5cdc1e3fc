import { Environments, type Environment } from '../../config/index.js';
import {
  endCredential,
  listCredentialListings,
  type CredentialFilter,
  type CredentialListing,
} from '../../infrastructure/repositories/client-credentials.js';
import { issueCredential, type IssuedCredential } from '../issue-credential.js';
import { noticeCredentialEnded, noticeEmergencyRotation, noticeRotationStarted } from '../notices/credentials.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import {
  DEFAULT_ROTATION_PERIOD_DAYS,
  addDays,
  credentialState,
  daysUntil,
  type CredentialState,
} from './credential-state.js';
import { ConflictError, InvalidInputError, NotFoundError } from './operator-errors.js';
import { requirePartner } from './partners.js';

export interface CredentialView extends CredentialListing {
  state: CredentialState;
}

export interface IssuedPair extends IssuedCredential {
  partnerId: string;
  partnerName: string;
  partnerStatus: string;
}

export interface RotationResult {
  /** The old pair, now retiring (rotation) or revoked (emergency rotation). */
  previous: CredentialView;
  /** The new pair. Its secret is in this result only: print it once. */
  issued: IssuedPair;
}

export const MAX_OVERLAP_DAYS = 90;

export function parseEnvironment(value: string): Environment {
  if (!(Environments as readonly string[]).includes(value)) {
    throw new InvalidInputError(
      `Unknown environment ${JSON.stringify(value)}; expected one of ${Environments.join(', ')}.`,
    );
  }
  return value as Environment;
}

export async function issuePartnerCredential(
  ctx: OperatorContext,
  partnerRef: string,
  environment: Environment,
): Promise<IssuedPair> {
  const partner = await requirePartner(ctx, partnerRef);
  return inTransaction(ctx, async (tx) => {
    const issued = await issueCredential(tx.db, partner.id, environment);
    await audit(tx, AuditActions.credentialIssue, issued.clientId, {
      partnerId: partner.id,
      partner: partner.name,
      environment,
    });
    return { ...issued, partnerId: partner.id, partnerName: partner.name, partnerStatus: partner.status };
  });
}

export async function listCredentials(
  ctx: OperatorContext,
  filter: { partner?: string; environment?: Environment; state?: CredentialState } = {},
): Promise<CredentialView[]> {
  const query: CredentialFilter = { environment: filter.environment };
  if (filter.partner) query.partnerId = (await requirePartner(ctx, filter.partner)).id;
  const now = ctx.now();
  const views = (await listCredentialListings(ctx.db, query)).map((c) => ({ ...c, state: credentialState(c, now) }));
  return filter.state ? views.filter((v) => v.state === filter.state) : views;
}

/**
 * Scheduled rotation (spec section 5.6): a new pair for the same partner and environment; the old one keeps
 * working for `overlapDays` and then stops (its expires_at), so the partner can deploy the new pair unhurried.
 */
export async function rotateCredential(
  ctx: OperatorContext,
  clientId: string,
  overlapDays: number,
): Promise<RotationResult> {
  if (!Number.isInteger(overlapDays) || overlapDays < 1 || overlapDays > MAX_OVERLAP_DAYS) {
    throw new InvalidInputError(
      `The overlap must be a whole number of days from 1 to ${MAX_OVERLAP_DAYS}; to stop the old pair at once, use "credentials emergency-rotate".`,
    );
  }
  const old = await requireUsable(ctx, clientId, 'rotate');
  return inTransaction(ctx, async (tx) => {
    const rotation = await rotateWithin(tx, old, overlapDays);
    await noticeRotationStarted(tx.db, tx.now(), rotationNotice(rotation), false);
    return rotation;
  });
}

/** A rotation's pairs as the partner's notices name them (services/notices). */
export const rotationNotice = (rotation: RotationResult) => ({
  partnerId: rotation.previous.partnerId,
  environment: rotation.previous.environment,
  oldClientId: rotation.previous.clientId,
  newClientId: rotation.issued.clientId,
  oldExpiresAt: rotation.previous.expiresAt,
});

/**
 * Inside the caller's transaction (`tx`): a new pair for the old one's partner and environment, the old one kept
 * working `overlapDays` (its expires_at), audited. The partner's own rotation (POST /credentials/rotate) runs it too.
 */
export async function rotateWithin(
  tx: OperatorContext,
  old: CredentialView,
  overlapDays: number,
): Promise<RotationResult> {
  const clientId = old.clientId;
  const now = tx.now();
  const expiresAt = addDays(now, overlapDays);
  const issued = await issueCredential(tx.db, old.partnerId, parseEnvironment(old.environment));
  if (!(await endCredential(tx.db, clientId, { expiresAt, replacedBy: issued.clientId }, now)))
    throw changedMeanwhile(clientId);
  await audit(tx, AuditActions.credentialRotate, clientId, {
    partner: old.partnerName,
    environment: old.environment,
    newClientId: issued.clientId,
    overlapDays,
    oldExpiresAt: expiresAt.toISOString(),
  });
  return {
    previous: await requireCredential(tx, clientId),
    issued: { ...issued, partnerId: old.partnerId, partnerName: old.partnerName, partnerStatus: old.partnerStatus },
  };
}

/** Emergency rotation (a leaked secret): a new pair, and the old one is revoked at once, with no overlap. */
export async function emergencyRotateCredential(
  ctx: OperatorContext,
  clientId: string,
  reason?: string,
): Promise<RotationResult> {
  const old = await requireUsable(ctx, clientId, 'emergency-rotate');
  return inTransaction(ctx, async (tx) => {
    const now = tx.now();
    const issued = await issueCredential(tx.db, old.partnerId, parseEnvironment(old.environment));
    if (!(await endCredential(tx.db, clientId, { revokedAt: now, replacedBy: issued.clientId }, now)))
      throw changedMeanwhile(clientId);
    await audit(tx, AuditActions.credentialEmergencyRotate, clientId, {
      partner: old.partnerName,
      environment: old.environment,
      newClientId: issued.clientId,
      ...(reason ? { reason } : {}),
    });
    const rotation = {
      previous: await requireCredential(tx, clientId),
      issued: { ...issued, partnerId: old.partnerId, partnerName: old.partnerName, partnerStatus: old.partnerStatus },
    };
    await noticeEmergencyRotation(tx.db, now, rotationNotice(rotation));
    return rotation;
  });
}

/** Stops a pair at once, including one inside a rotation's overlap window. */
export async function revokeCredential(
  ctx: OperatorContext,
  clientId: string,
  reason?: string,
): Promise<{ revoked: CredentialView; usableLeft: number }> {
  const current = await requireCredential(ctx, clientId);
  if (current.state === 'revoked' || current.state === 'expired') {
    throw new ConflictError(`Credential ${clientId} is already ${current.state}; it cannot be used.`);
  }
  return inTransaction(ctx, async (tx) => {
    const now = tx.now();
    if (!(await endCredential(tx.db, clientId, { revokedAt: now }, now, { allowEnding: true })))
      throw changedMeanwhile(clientId);
    await audit(tx, AuditActions.credentialRevoke, clientId, {
      partner: current.partnerName,
      environment: current.environment,
      ...(reason ? { reason } : {}),
    });
    const siblings = await listCredentialListings(tx.db, {
      partnerId: current.partnerId,
      environment: current.environment,
    });
    const usableLeft = siblings.filter((c) => ['active', 'retiring'].includes(credentialState(c, now))).length;
    const revoked = await requireCredential(tx, clientId);
    await noticeCredentialEnded(tx.db, now, { ...revoked, at: now }, 'revoked');
    return { revoked, usableLeft };
  });
}

export interface DueCredential extends CredentialView {
  dueAt: Date;
  /** Negative when the rotation is overdue. */
  daysLeft: number;
}

/**
 * Pairs whose scheduled (annual) rotation falls within `withinDays` or is overdue: in use, not already rotated,
 * issued at least `periodDays - withinDays` days ago. Soonest first.
 */
export async function credentialsDueForRotation(
  ctx: OperatorContext,
  options: { withinDays: number; periodDays?: number; environment?: Environment },
): Promise<DueCredential[]> {
  const periodDays = options.periodDays ?? DEFAULT_ROTATION_PERIOD_DAYS;
  if (!Number.isInteger(options.withinDays) || options.withinDays < 0)
    throw new InvalidInputError('--within must be a whole number of days, 0 or more.');
  const now = ctx.now();
  const horizon = addDays(now, options.withinDays);
  const active = await listCredentials(ctx, { environment: options.environment, state: 'active' });
  return active
    .map((c) => {
      const dueAt = addDays(c.createdAt, periodDays);
      return { ...c, dueAt, daysLeft: daysUntil(dueAt, now) };
    })
    .filter((c) => c.dueAt <= horizon)
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime());
}

async function requireCredential(ctx: OperatorContext, clientId: string): Promise<CredentialView> {
  const [row] = await listCredentialListings(ctx.db, { clientId });
  if (!row)
    throw new NotFoundError(`No credential with client_id ${JSON.stringify(clientId)} (see "credentials list").`);
  return { ...row, state: credentialState(row, ctx.now()) };
}

/** The credential, if it is an ordinary pair in use: a retiring, expired or revoked one cannot be rotated again. */
export async function requireUsable(ctx: OperatorContext, clientId: string, verb: string): Promise<CredentialView> {
  const credential = await requireCredential(ctx, clientId);
  if (credential.state === 'retiring') {
    throw new ConflictError(
      `Credential ${clientId} was already rotated (replaced by ${credential.replacedBy}) and stops at ${credential.expiresAt!.toISOString()}; ` +
        `to stop it now, use "credentials revoke ${clientId}".`,
    );
  }
  if (credential.state !== 'active') {
    throw new ConflictError(
      `Credential ${clientId} is ${credential.state}; there is nothing to ${verb}. Issue a new pair with "credentials issue".`,
    );
  }
  return credential;
}

const changedMeanwhile = (clientId: string) =>
  new ConflictError(
    `Credential ${clientId} was changed by someone else meanwhile; nothing was done. Check "credentials list" and retry.`,
  );
