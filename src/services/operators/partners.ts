import { isUniqueViolation } from '../../infrastructure/db/unavailable.js';
import type { Partner } from '../../infrastructure/db/schema.js';
import {
  findPartner,
  insertPartner,
  listPartnerSummaries,
  setPartnerChannels,
  updatePartner,
  type PartnerSummary,
} from '../../infrastructure/repositories/partners.js';
import { AuditActions, audit } from './audit.js';
import { requireKnownChannels } from './channels.js';
import { inTransaction, type OperatorContext } from './context.js';
import { ConflictError, InvalidInputError, NotFoundError } from './operator-errors.js';

export type { PartnerSummary };

export interface Quota {
  limit: number;
  windowSeconds: number;
}

export interface NewPartnerInput {
  name: string;
  channels: string[];
  /** Missing parts take the deployment defaults (QUOTA_DEFAULT_*). */
  quota: Quota;
}

export interface PartnerChanges {
  /** Replaces the partner's channels. */
  channels?: string[];
  addChannels?: string[];
  removeChannels?: string[];
  quotaLimit?: number;
  quotaWindowSeconds?: number;
}

export async function requirePartner(ctx: OperatorContext, idOrName: string): Promise<Partner> {
  const partner = await findPartner(ctx.db, idOrName);
  if (!partner)
    throw new NotFoundError(`No partner with name or id ${JSON.stringify(idOrName)} (see "partners list").`);
  return partner;
}

export async function createPartner(ctx: OperatorContext, input: NewPartnerInput): Promise<PartnerSummary> {
  const name = input.name.trim();
  if (name === '') throw new InvalidInputError('A partner needs a name.');
  const channels = unique(input.channels);
  if (channels.length === 0) throw new InvalidInputError('A partner needs at least one channel (--channel).');
  requireQuota(input.quota.limit, input.quota.windowSeconds);
  await requireKnownChannels(ctx, channels);
  const id = await inTransaction(ctx, async (tx) => {
    if (await findPartner(tx.db, name))
      throw new ConflictError(`A partner named ${JSON.stringify(name)} already exists.`);
    const partner = await insertPartner(tx.db, {
      name,
      channels,
      quotaLimit: input.quota.limit,
      quotaWindowSeconds: input.quota.windowSeconds,
    }).catch((err: unknown) => {
      throw isUniqueViolation(err) ? new ConflictError(`A partner named ${JSON.stringify(name)} already exists.`) : err;
    });
    await audit(tx, AuditActions.partnerCreate, partner.id, {
      name,
      channels,
      quotaLimit: input.quota.limit,
      quotaWindowSeconds: input.quota.windowSeconds,
    });
    return partner.id;
  });
  return summary(ctx, id);
}

export function listPartners(
  ctx: OperatorContext,
  filter: { status?: 'active' | 'suspended' } = {},
): Promise<PartnerSummary[]> {
  return listPartnerSummaries(ctx.db, filter, ctx.now());
}

export async function showPartner(ctx: OperatorContext, idOrName: string): Promise<PartnerSummary> {
  return summary(ctx, (await requirePartner(ctx, idOrName)).id);
}

/** Changes channels and/or quota. A change to the quota or channels reaches running instances within the credential cache TTL. */
export async function changePartner(
  ctx: OperatorContext,
  idOrName: string,
  changes: PartnerChanges,
): Promise<PartnerSummary> {
  const before = await showPartner(ctx, idOrName);
  const channels = nextChannels(before.channels, changes);
  const quotaLimit = changes.quotaLimit ?? before.quota_limit;
  const quotaWindowSeconds = changes.quotaWindowSeconds ?? before.quota_window_seconds;
  requireQuota(quotaLimit, quotaWindowSeconds);
  const channelsChanged = channels.join('\n') !== [...before.channels].sort().join('\n');
  const quotaChanged = quotaLimit !== before.quota_limit || quotaWindowSeconds !== before.quota_window_seconds;
  if (!channelsChanged && !quotaChanged)
    throw new InvalidInputError('Nothing to change: the partner already has these channels and this quota.');
  if (channels.length === 0)
    throw new InvalidInputError('A partner needs at least one channel; to stop a partner, suspend it.');
  await requireKnownChannels(ctx, channels);
  await inTransaction(ctx, async (tx) => {
    if (channelsChanged) await setPartnerChannels(tx.db, before.id, channels);
    await updatePartner(tx.db, before.id, { quotaLimit, quotaWindowSeconds }, tx.now());
    await audit(tx, AuditActions.partnerUpdate, before.id, {
      name: before.name,
      ...(channelsChanged ? { channels: { from: before.channels, to: channels } } : {}),
      ...(quotaChanged
        ? {
            quota: {
              from: { limit: before.quota_limit, windowSeconds: before.quota_window_seconds },
              to: { limit: quotaLimit, windowSeconds: quotaWindowSeconds },
            },
          }
        : {}),
    });
  });
  return summary(ctx, before.id);
}

/**
 * Suspends or reactivates a partner. A suspended partner's every call is answered 401, on every instance within
 * the credential cache TTL; its credentials are kept, so reactivation restores them as they were.
 */
export async function setPartnerStatus(
  ctx: OperatorContext,
  idOrName: string,
  status: 'active' | 'suspended',
  reason?: string,
): Promise<PartnerSummary> {
  const partner = await requirePartner(ctx, idOrName);
  if (partner.status === status)
    throw new ConflictError(`Partner ${JSON.stringify(partner.name)} is already ${status}.`);
  await inTransaction(ctx, async (tx) => {
    await updatePartner(tx.db, partner.id, { status }, tx.now());
    await audit(tx, status === 'suspended' ? AuditActions.partnerSuspend : AuditActions.partnerReactivate, partner.id, {
      name: partner.name,
      ...(reason ? { reason } : {}),
    });
  });
  return summary(ctx, partner.id);
}

async function summary(ctx: OperatorContext, id: string): Promise<PartnerSummary> {
  const [row] = await listPartnerSummaries(ctx.db, { id }, ctx.now());
  if (!row) throw new NotFoundError(`No partner with id ${id}.`);
  return row;
}

function nextChannels(current: string[], changes: PartnerChanges): string[] {
  let next = changes.channels ? unique(changes.channels) : [...current];
  next = unique([...next, ...(changes.addChannels ?? [])]);
  const removed = new Set(changes.removeChannels ?? []);
  const notHeld = [...removed].filter((c) => !next.includes(c));
  if (notHeld.length > 0)
    throw new InvalidInputError(
      `The partner does not have channel ${notHeld.map((c) => JSON.stringify(c)).join(', ')}.`,
    );
  return next.filter((c) => !removed.has(c)).sort();
}

function requireQuota(limit: number, windowSeconds: number) {
  if (!Number.isInteger(limit) || limit < 1)
    throw new InvalidInputError('The quota limit must be a whole number of requests, at least 1.');
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1)
    throw new InvalidInputError('The quota window must be a whole number of seconds, at least 1.');
}

const unique = (values: readonly string[]) => [...new Set(values)].sort();
