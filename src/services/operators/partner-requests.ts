import type { OperatorContext } from './context.js';
import { InvalidInputError } from './operator-errors.js';
import { requirePartner } from './partners.js';
import { RequestSearchError, searchRequests, type RequestPage } from '../portal/request-log.js';

export interface OperatorRequestSearch {
  correlationId?: string;
  status?: string;
  route?: string;
  limit?: number;
}

/**
 * A partner's logged API requests, newest first, for the foundation's support (`partners requests`): the same search
 * the partner's portal runs, over the same masked rows (docs/decisions/0088-request-log-masked-and-buffered.md).
 */
export async function partnerRequests(
  ctx: OperatorContext,
  partnerRef: string,
  search: OperatorRequestSearch,
): Promise<RequestPage> {
  const partner = await requirePartner(ctx, partnerRef);
  try {
    return await searchRequests(ctx.db, partner.id, search);
  } catch (err) {
    if (err instanceof RequestSearchError) throw new InvalidInputError(`--${optionOf(err.field)} ${err.message}.`);
    throw err;
  }
}

const optionOf = (field: string) => (field === 'correlationId' ? 'correlation-id' : field);
