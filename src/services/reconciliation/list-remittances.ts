import type { Kysely } from 'kysely';
import type { Principal } from '../../domain/principal.js';
import { ApiError } from '../../api-errors.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { listPartnerBatches } from '../../infrastructure/repositories/remittance-report-pages.js';
import type { PageCursors } from './page-cursor.js';
import { ownerOf, summaryReport, type BatchSummaryReport } from './remittance-report.js';

export interface BatchListQuery {
  status?: string;
  /** ISO 8601 date-times: received on or after `receivedFrom`, before `receivedTo`. */
  receivedFrom?: string;
  receivedTo?: string;
  limit: number;
  cursor?: string;
}

export const DEFAULT_BATCH_PAGE = 100;

/**
 * The calling partner's batches in its environment, newest first, each as its report without entries. Each page
 * is one statement (one snapshot); the cursor is the last batch's receipt time (to the microsecond) and id.
 */
export async function listRemittanceReports(
  db: Kysely<DB>,
  cursors: PageCursors,
  principal: Pick<Principal, 'partnerId' | 'environment'>,
  query: BatchListQuery,
): Promise<{ batches: BatchSummaryReport[]; nextCursor: string | null }> {
  const scope = {
    list: 'remittances',
    status: query.status ?? null,
    receivedFrom: query.receivedFrom ?? null,
    receivedTo: query.receivedTo ?? null,
  };
  const after = query.cursor ? positionFrom(cursors.decode(query.cursor, scope)) : undefined;
  const rows = await listPartnerBatches(db, {
    owner: ownerOf(principal),
    status: query.status,
    from: query.receivedFrom === undefined ? undefined : new Date(query.receivedFrom),
    to: query.receivedTo === undefined ? undefined : new Date(query.receivedTo),
    after,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    batches: page.map((batch) => summaryReport(batch, { partnerView: true })),
    nextCursor:
      rows.length > query.limit && last ? cursors.encode(scope, { createdKey: last.created_key, id: last.id }) : null,
  };
}

function positionFrom(position: Record<string, unknown>): { createdKey: string; id: string } {
  const { createdKey, id } = position;
  if (typeof createdKey !== 'string' || typeof id !== 'string')
    throw new ApiError('VALIDATION', 'query.cursor: is not a cursor this API issued');
  return { createdKey, id };
}
