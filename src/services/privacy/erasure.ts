import {
  closeErasureRequest,
  insertErasureRequest,
  lockErasureRequest,
  performedErasures,
  type ErasureRequestRow,
  type KeptItem,
} from '../../infrastructure/repositories/erasure-requests.js';
import { eraseRows, findHoldings } from '../../infrastructure/repositories/privacy-erasure.js';
import { AuditActions, audit } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { ConflictError, NotFoundError } from '../operators/operator-errors.js';
import { recordEvent } from '../webhooks/record-event.js';
import { erasedCounts, planErasure, type ErasurePlan } from './erasure-plan.js';
import { cleanEmail, cleanText } from './input.js';

/** An erasure request as operators see it: references and counts, never the person's details. */
export interface ErasureView {
  id: string;
  status: ErasureRequestRow['status'];
  requestedBy: string;
  requestedAt: Date;
  decidedBy: string | null;
  erased: ReturnType<typeof erasedCounts>;
  kept: KeptItem[];
}

function view(row: ErasureRequestRow, plan?: ErasurePlan): ErasureView {
  return {
    id: row.id,
    status: row.status,
    requestedBy: row.requested_by,
    requestedAt: new Date(row.requested_at),
    decidedBy: row.decided_by,
    erased: erasedCounts(plan?.erase ?? row.erased ?? { donations: [], mandates: [], statements: [], mail: [] }),
    kept: plan?.kept ?? row.kept ?? [],
  };
}

function refuseLivePlans(plan: ErasurePlan) {
  if (plan.liveMandates.length > 0)
    throw new ConflictError(
      `Mandate ${plan.liveMandates.join(', ')} has a live recurring donation: cancel it first ` +
        '(fundraiser-admin recurring cancel), then ask again.',
    );
}

/**
 * Records a request to erase what is held about `email` (docs/privacy.md, "An erasure request"): nothing changes
 * until another operator approves it. Says what the approval would erase and what the law keeps. Refused while a
 * mandate of the address has a live plan. Audited with counts, never the address.
 */
export async function requestErasure(
  ctx: OperatorContext,
  request: { email: string; reason: string; timeZone: string },
): Promise<ErasureView> {
  const email = cleanEmail(request.email);
  const reason = cleanText(request.reason, 'the reason', 500);
  return inTransaction(ctx, async (tx) => {
    const holdings = await findHoldings(tx.db, email);
    const plan = planErasure(holdings, tx.now(), request.timeZone);
    refuseLivePlans(plan);
    const counts = erasedCounts(plan.erase);
    if (Object.values(counts).every((n) => n === 0) && plan.kept.length === 0)
      throw new NotFoundError('Nothing identified is held about that address: there is nothing to erase.');
    const row = await insertErasureRequest(tx.db, { email, reason, requestedBy: tx.operator, at: tx.now() });
    await audit(tx, AuditActions.privacyEraseRequest, `erasure:${row.id}`, { ...counts, kept: plan.kept.length });
    return view(row, plan);
  });
}

/**
 * A second operator performs a pending erasure: what no law requires kept is de-identified now; the request keeps the
 * references and clears the address; each partner concerned is sent a `donor.erased` event with its references only.
 * The operator who asked cannot approve (four eyes).
 */
export async function approveErasure(
  ctx: OperatorContext,
  id: string,
  settings: { timeZone: string },
): Promise<ErasureView> {
  return inTransaction(ctx, async (tx) => {
    const row = await pendingRequest(tx, id);
    if (row.requested_by === tx.operator)
      throw new ConflictError(`You asked for erasure ${row.id}: another operator must approve it.`);
    const plan = planErasure(await findHoldings(tx.db, row.email!), tx.now(), settings.timeZone);
    refuseLivePlans(plan);
    await eraseRows(tx.db, plan.erase, tx.now());
    await closeErasureRequest(tx.db, row.id, {
      status: 'done',
      by: tx.operator,
      at: tx.now(),
      erased: plan.erase,
      kept: plan.kept,
    });
    for (const owner of plan.byOwner)
      await recordEvent(tx.db, { partnerId: owner.partnerId, environment: owner.environment }, 'donor.erased', {
        erasureId: row.id,
        donationReferenceIds: owner.donations,
        mandateIds: owner.mandates,
      });
    const counts = erasedCounts(plan.erase);
    await audit(tx, AuditActions.privacyErase, `erasure:${row.id}`, {
      requestedBy: row.requested_by,
      ...counts,
      kept: plan.kept.map((k) => ({ kind: k.kind, ref: k.ref, until: k.until })),
    });
    return view({ ...row, status: 'done', email: null, decided_by: tx.operator }, plan);
  });
}

/** Withdraws a pending request (the person withdrew it, or it was entered by mistake). Audited. */
export async function cancelErasure(ctx: OperatorContext, id: string, reason: string): Promise<ErasureView> {
  const why = cleanText(reason, 'the reason', 500);
  return inTransaction(ctx, async (tx) => {
    const row = await pendingRequest(tx, id);
    await closeErasureRequest(tx.db, row.id, { status: 'cancelled', by: tx.operator, at: tx.now() });
    await audit(tx, AuditActions.privacyEraseCancel, `erasure:${row.id}`, { reason: why });
    return view({ ...row, status: 'cancelled', email: null, decided_by: tx.operator });
  });
}

async function pendingRequest(tx: OperatorContext, id: string): Promise<ErasureRequestRow> {
  const row = await lockErasureRequest(tx.db, id.trim());
  if (!row) throw new NotFoundError(`No erasure request ${JSON.stringify(id)}.`);
  if (row.status !== 'pending') throw new ConflictError(`Erasure ${row.id} is ${row.status} already.`);
  return row;
}

/**
 * After a restore from a backup taken before some erasures: every performed erasure is applied again from its
 * references (the log never kept the erased values). Rows already de-identified are skipped, so it may run any number
 * of times. Audited.
 */
export async function replayErasures(ctx: OperatorContext): Promise<{ requests: number; rows: number }> {
  return inTransaction(ctx, async (tx) => {
    const erasures = await performedErasures(tx.db);
    let rows = 0;
    for (const erasure of erasures) rows += await eraseRows(tx.db, erasure.erased, tx.now());
    await audit(tx, AuditActions.privacyReplayErasures, null, { requests: erasures.length, rows });
    return { requests: erasures.length, rows };
  });
}
