import type { Readable } from 'node:stream';
import { ApiError } from '../../api-errors.js';
import { type DEBIT_VIEWS } from '../../infrastructure/repositories/recurring-admin.js';
import { isUuid } from '../../domain/uuid.js';
import { listOwedBack } from '../operators/owed-back.js';
import { NotFoundError } from '../operators/operator-errors.js';
import { listPlans } from '../operators/recurring.js';
import { listDebits } from '../operators/recurring-debits.js';
import { listRemittanceReports } from '../reconciliation/list-remittances.js';
import type { PageCursors } from '../reconciliation/page-cursor.js';
import { openRemittanceCsv } from '../reconciliation/remittance-csv.js';
import { getRemittanceReport, ownerOf } from '../reconciliation/remittance-report.js';
import type { PartnerScope } from '../webhooks/partner-actions.js';

/**
 * The partner's money, read-only, for its people in the portal: its remittance batches and their reports and CSV
 * (the API's GET /remittances services, scoped by the same owner), and the operators' lists of reversals owed back,
 * plans and debits narrowed to the partner and this environment. Another partner's batch is an unknown one.
 */
const MONEY_LIST_LIMIT = 200;
/** Entries a batch's page shows; the CSV has them all. */
export const REPORT_PAGE_ENTRIES = 500;

const mine = <T extends { partnerId: string; environment: string }>(scope: PartnerScope, rows: readonly T[]) =>
  rows.filter((r) => r.partnerId === scope.partnerId && r.environment === scope.environment);

export async function partnerBatches(scope: PartnerScope, cursors: PageCursors) {
  return (await listRemittanceReports(scope.db, cursors, ownerOf(scope), { limit: MONEY_LIST_LIMIT })).batches;
}

/** A batch's report (its first REPORT_PAGE_ENTRIES entries); NotFoundError for any batch not the partner's. */
export async function partnerBatchReport(scope: PartnerScope, cursors: PageCursors, batchId: string) {
  if (!isUuid(batchId)) throw new NotFoundError(`No remittance batch with id ${batchId}`);
  try {
    return await getRemittanceReport(scope.db, cursors, ownerOf(scope), batchId, { limit: REPORT_PAGE_ENTRIES });
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'NOT_FOUND') throw new NotFoundError(err.cause ?? err.message);
    throw err;
  }
}

/** The batch's CSV file, as GET /remittances/{batchId} with Accept: text/csv answers it. */
export async function partnerBatchCsv(scope: PartnerScope, batchId: string): Promise<Readable> {
  if (!isUuid(batchId)) throw new NotFoundError(`No remittance batch with id ${batchId}`);
  try {
    return await openRemittanceCsv(scope.db, batchId, { owner: ownerOf(scope) });
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'NOT_FOUND') throw new NotFoundError(err.cause ?? err.message);
    throw err;
  }
}

/** Reversals of the partner's donations not yet repaid: what it owes back, oldest first, and the total. */
export async function partnerOwedBack(scope: PartnerScope) {
  const owed = await listOwedBack(scope, { partner: scope.partnerId, limit: MONEY_LIST_LIMIT });
  const reversals = mine(scope, owed.reversals);
  const total = owed.totals.find((t) => t.environment === scope.environment);
  return { reversals, totalCents: total?.totalCents ?? 0, count: total?.count ?? 0 };
}

export async function partnerPlans(scope: PartnerScope, status?: string) {
  return mine(scope, await listPlans(scope, { partner: scope.partnerId, status, limit: MONEY_LIST_LIMIT }));
}

export async function partnerDebits(scope: PartnerScope, view: string, timeZone: string) {
  const search = { view: view as (typeof DEBIT_VIEWS)[number], partner: scope.partnerId, limit: MONEY_LIST_LIMIT };
  return mine(scope, await listDebits(scope, search, timeZone));
}
