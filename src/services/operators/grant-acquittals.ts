import { dateIn, isCalendarDate } from '../../domain/calendar-date.js';
import { formatCents, parseDecimalToCents } from '../../domain/money.js';
import {
  listAcquittals,
  lockAcquittalOf,
  recordDeclaration,
  type AcquittalListing,
} from '../../infrastructure/repositories/grant-acquittals.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import { ConflictError, InvalidInputError, NotFoundError } from './operator-errors.js';

/**
 * Acquittals for operators (docs/grants.md, "Acquittals"): the list of those open or overdue, and the record of a
 * club's expenditure declaration (who, when, the amount spent, the purpose), audited.
 */
export interface AcquittalView {
  lodgementReference: string | null;
  club: string;
  memberNumber: string;
  grantCents: number;
  dueOn: string;
  state: 'open' | 'overdue' | 'recorded';
  remindedAt: string | null;
  declaredBy: string | null;
  declaredOn: string | null;
  spentCents: number | null;
  purpose: string | null;
  recordedBy: string | null;
  recordedAt: string | null;
}

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

function acquittalView(row: AcquittalListing, today: string): AcquittalView {
  const state = row.recorded_at ? 'recorded' : row.due_on < today ? 'overdue' : 'open';
  return {
    lodgementReference: row.lodgement_reference,
    club: row.club_name,
    memberNumber: row.member_number,
    grantCents: Number(row.amount_cents),
    dueOn: row.due_on,
    state,
    remindedAt: iso(row.reminded_at),
    declaredBy: row.declared_by,
    declaredOn: row.declared_on,
    spentCents: row.amount_spent_cents === null ? null : Number(row.amount_spent_cents),
    purpose: row.purpose,
    recordedBy: row.recorded_by,
    recordedAt: iso(row.recorded_at),
  };
}

/** Open acquittals (soonest due first), only the overdue ones, or every one of a club's grants. */
export async function acquittalsList(
  ctx: OperatorContext,
  filter: { overdue?: boolean; accountId?: string; limit: number },
  timeZone: string,
): Promise<AcquittalView[]> {
  const today = dateIn(ctx.now(), timeZone);
  const rows = await listAcquittals(ctx.db, {
    open: !filter.accountId,
    overdueOn: filter.overdue ? today : undefined,
    accountId: filter.accountId,
    limit: filter.limit,
  });
  return rows.map((row) => acquittalView(row, today));
}

export interface Declaration {
  grant: string;
  declaredBy: string;
  declaredOn: string;
  /** Dollars and cents, as the club wrote it. */
  spent: string;
  purpose: string;
}

/**
 * Records a club's declaration for a grant. Refused: an unknown grant or one without an acquittal, one recorded
 * already, a date that is not a date, in the future or before the grant was paid, an amount that is not money or is
 * more than the grant (docs/decisions/0069-acquittals-declared-within-the-grant.md), an empty name or purpose.
 */
export async function recordAcquittal(ctx: OperatorContext, input: Declaration, timeZone: string) {
  const declaredBy = input.declaredBy.trim();
  const purpose = input.purpose.trim();
  if (!declaredBy) throw new InvalidInputError('--declared-by: who made the declaration, for the club (a name).');
  if (!purpose) throw new InvalidInputError('--purpose: what the grant was spent on.');
  if (purpose.length > 2000) throw new InvalidInputError('--purpose: 2,000 characters at most.');
  if (!isCalendarDate(input.declaredOn))
    throw new InvalidInputError(`--declared-on: ${JSON.stringify(input.declaredOn)} is not a date (YYYY-MM-DD).`);
  const today = dateIn(ctx.now(), timeZone);
  if (input.declaredOn > today) throw new InvalidInputError(`--declared-on: ${input.declaredOn} is in the future.`);
  const spentCents = parseDecimalToCents(input.spent.trim().replace(/^\$/, ''));
  if (spentCents === null)
    throw new InvalidInputError(`--spent: ${JSON.stringify(input.spent)} is not an amount in dollars (e.g. 1250.00).`);
  return inTransaction(ctx, async (tx) => {
    const acquittal = await lockAcquittalOf(tx.db, input.grant.trim());
    if (!acquittal)
      throw new NotFoundError(`No acquittal for a grant with lodgement reference ${JSON.stringify(input.grant)}.`);
    if (acquittal.recorded_at)
      throw new ConflictError(
        `The acquittal of grant ${input.grant} was recorded already (by ${acquittal.recorded_by ?? '?'}).`,
      );
    const grantCents = Number(acquittal.amount_cents);
    if (spentCents > grantCents)
      throw new InvalidInputError(
        `--spent: $${formatCents(spentCents)} is more than the grant ($${formatCents(grantCents)}); declare what ` +
          'was spent of this grant.',
      );
    if (acquittal.paid_at && input.declaredOn < dateIn(new Date(acquittal.paid_at), timeZone))
      throw new InvalidInputError(`--declared-on: ${input.declaredOn} is before the grant was paid.`);
    await recordDeclaration(tx.db, acquittal.grant_id, {
      declaredBy,
      declaredOn: input.declaredOn,
      spentCents,
      purpose,
      by: tx.operator,
      at: tx.now(),
    });
    await audit(tx, AuditActions.grantAcquittalRecord, input.grant.trim(), {
      declaredOn: input.declaredOn,
      spentCents,
    });
    return { lodgementReference: input.grant.trim(), dueOn: acquittal.due_on, spentCents, grantCents };
  });
}
