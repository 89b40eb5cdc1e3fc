import { retentionCutoffs, type RetentionPolicy } from '../../domain/privacy.js';
import { listErasureRequests } from '../../infrastructure/repositories/erasure-requests.js';
import { readProgress, type PrivacyProgress } from '../../infrastructure/repositories/privacy-cursors.js';
import type { OperatorContext } from '../operators/context.js';

export interface PrivacyStatus extends PrivacyProgress {
  /** Erasure requests waiting for a second operator, newest first (never their address). */
  pending: { id: string; requestedBy: string; requestedAt: Date }[];
}

/** The de-identification's progress and the erasures waiting (docs/privacy.md): the CLI's status, the console page. */
export async function privacyStatus(ctx: OperatorContext, policy: RetentionPolicy): Promise<PrivacyStatus> {
  const progress = await readProgress(ctx.db, retentionCutoffs(ctx.now(), policy).donorData);
  const pending = await listErasureRequests(ctx.db, { status: 'pending', limit: 100 });
  return {
    ...progress,
    pending: pending.map((p) => ({ id: p.id, requestedBy: p.requested_by, requestedAt: new Date(p.requested_at) })),
  };
}
