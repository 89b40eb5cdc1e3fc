import { ApiError } from '../../api-errors.js';
import { audit, AuditActions } from '../operators/audit.js';
import { inTransaction } from '../operators/context.js';
import { InvalidInputError, NotFoundError } from '../operators/operator-errors.js';
import { sandboxReceipts } from '../receipts/sandbox-view.js';
import type { RecurringDeps } from '../recurring/deps.js';
import { advanceSandboxClock, readSandboxClock } from '../recurring/sandbox-clock.js';
import type { PartnerScope } from '../webhooks/partner-actions.js';

/**
 * The partner's sandbox for its people in the portal: the same clock and limits as GET /sandbox/clock and
 * POST /sandbox/clock/advance, and the sample receipts of GET /sandbox/receipts, scoped to the partner.
 */
export const partnerSandboxClock = (scope: PartnerScope, recurring: RecurringDeps) =>
  readSandboxClock(recurring, scope.partnerId);

/** Moves the partner's clock by an ISO 8601 duration (at most 5 years), as the API does; audited with the person. */
export async function advancePartnerSandboxClock(scope: PartnerScope, recurring: RecurringDeps, duration: string) {
  let advanced: Awaited<ReturnType<typeof advanceSandboxClock>>;
  try {
    advanced = await advanceSandboxClock(recurring, scope.partnerId, duration.trim());
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'VALIDATION') throw new InvalidInputError(err.cause ?? err.message);
    throw err;
  }
  await inTransaction(scope, (tx) =>
    audit(tx, AuditActions.sandboxClockAdvance, scope.partnerId, { duration: duration.trim(), now: advanced.now }),
  );
  return advanced;
}

/** A donation's sample receipts and the messages its donor would get; another partner's is an unknown donation. */
export async function partnerSandboxReceipts(scope: PartnerScope, referenceId: string) {
  try {
    return await sandboxReceipts(scope.db, scope, referenceId.trim());
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'NOT_FOUND') throw new NotFoundError(err.cause ?? err.message);
    throw err;
  }
}
