import {
  findRoundByNumber,
  lockRound,
  previousApprovedRound,
  updateRoundIf,
} from '../../../infrastructure/repositories/grant-rounds.js';
import { linesOfRound, type LineView } from '../../../infrastructure/repositories/grants.js';
import { AuditActions, audit } from '../../operators/audit.js';
import { inTransaction, type OperatorContext } from '../../operators/context.js';
import { ConflictError, NotFoundError } from '../../operators/operator-errors.js';
import { requireAdmin } from './admins.js';
import { lineView, roundView, type GrantLineView, type RoundView } from './view.js';

/** What changed for a club since the last approved round. */
export interface ClubChange {
  memberNumber: string;
  club: string;
  change: 'new' | 'no_longer' | 'held_changed' | 'amount_changed';
  before: { status: string; holdReason: string | null; amountCents: string } | null;
  now: { status: string; holdReason: string | null; amountCents: string } | null;
}

export interface RoundReview {
  round: RoundView;
  /** Every line: paid and held, per club. */
  lines: GrantLineView[];
  held: GrantLineView[];
  comparedWith: number | null;
  changes: ClubChange[];
}

export async function requireRound(ctx: OperatorContext, number: number) {
  const round = await findRoundByNumber(ctx.db, number);
  if (!round) throw new NotFoundError(`There is no grant round ${number}.`);
  return round;
}

/** The review of a round (docs/grants.md, "Review and approval"): totals per club, the held list, what changed. */
export async function showRound(ctx: OperatorContext, number: number): Promise<RoundReview> {
  const round = await requireRound(ctx, number);
  const lines = await linesOfRound(ctx.db, round.id);
  const previous = await previousApprovedRound(ctx.db, round.number);
  const before = previous ? await linesOfRound(ctx.db, previous.id) : [];
  return {
    round: roundView(round),
    lines: lines.map(lineView),
    held: lines.filter((l) => l.status === 'held').map(lineView),
    comparedWith: previous?.number ?? null,
    changes: changesBetween(before, lines),
  };
}

const stateOf = (l: LineView | undefined) =>
  l ? { status: l.status, holdReason: l.hold_reason, amountCents: l.amount_cents } : null;

/** Clubs paid now and not then (new), paid then and not now (no longer), held differently, paid a different amount. */
function changesBetween(before: readonly LineView[], now: readonly LineView[]): ClubChange[] {
  const then = new Map(before.map((l) => [l.account_id, l]));
  const current = new Map(now.map((l) => [l.account_id, l]));
  const paid = (l: LineView | undefined) => l !== undefined && l.status !== 'held';
  const changes: ClubChange[] = [];
  for (const id of new Set([...then.keys(), ...current.keys()])) {
    const [b, n] = [then.get(id), current.get(id)];
    const change: ClubChange['change'] | null =
      paid(n) && !paid(b)
        ? b?.status === 'held'
          ? 'held_changed'
          : 'new'
        : paid(b) && !paid(n)
          ? n?.status === 'held'
            ? 'held_changed'
            : 'no_longer'
          : b && n && b.hold_reason !== n.hold_reason
            ? 'held_changed'
            : b && n && b.amount_cents !== n.amount_cents
              ? 'amount_changed'
              : null;
    const any = (n ?? b)!;
    if (change)
      changes.push({
        memberNumber: any.member_number,
        club: any.club_name,
        change,
        before: stateOf(b),
        now: stateOf(n),
      });
  }
  return changes.sort((a, b) => a.memberNumber.localeCompare(b.memberNumber));
}

/** An admin's review of a draft: recorded (who, when) and audited. A round drafted by the schedule needs one. */
export async function reviewRound(ctx: OperatorContext, number: number): Promise<RoundView> {
  return inTransaction(ctx, async (tx) => {
    const reviewer = await requireAdmin(tx.db, tx.operator, 'review a grant round');
    const round = await lockRound(tx.db, number);
    if (!round) throw new NotFoundError(`There is no grant round ${number}.`);
    if (round.status !== 'draft')
      throw new ConflictError(`Round ${number} is ${round.status}: only a draft is reviewed.`);
    const at = tx.now();
    await updateRoundIf(tx.db, round.id, 'draft', { reviewed_by: reviewer, reviewed_at: at });
    await audit(tx, AuditActions.grantRoundReview, `round:${number}`, { totalCents: String(round.total_cents) });
    return roundView({ ...round, reviewed_by: reviewer, reviewed_at: at });
  });
}
