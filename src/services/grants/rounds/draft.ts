import type { Kysely } from 'kysely';
import { dateIn, isCalendarDate } from '../../../domain/calendar-date.js';
import { decideLine } from '../../../domain/grants/line.js';
import { lodgementReference } from '../../../domain/grants/lodgement.js';
import { cutoffOf } from '../../../domain/grants/schedule.js';
import type { DB } from '../../../infrastructure/db/schema.js';
import { isUniqueViolation } from '../../../infrastructure/db/unavailable.js';
import {
  claimForPaidLines,
  clubFacts,
  insertLines,
  prepareDrafting,
  setRoundTotals,
  type ClubFacts,
  type NewLine,
} from '../../../infrastructure/repositories/grant-drafting.js';
import {
  findRoundByNumber,
  findRoundByScheduledDay,
  insertRound,
  openDraft,
  type RoundRow,
} from '../../../infrastructure/repositories/grant-rounds.js';
import { ConflictError, InvalidInputError } from '../../operators/operator-errors.js';
import { audit } from '../../operators/audit.js';
import { GrantRoundAuditActions } from './audit-actions.js';
import type { RoundTerms } from './terms.js';

const DAY_MS = 86_400_000;

export interface DraftRequest {
  /** The scheduled day drafted for (the schedule job), or null for an operator's draft off the schedule. */
  scheduledOn: string | null;
  /** The day whose start is the cut-off: the scheduled day, or the operator's --cutoff (default today). */
  cutoffDay: string;
  /** 'schedule', or the operator's e-mail. */
  by: string;
  at: Date;
  /** The schedule's drafts: a round that would have no line is not made (nothing is owed to any club). */
  skipIfEmpty?: boolean;
}

/** Rolls back a draft with no line: the schedule makes no empty round (an open draft blocks the next). */
class NothingOwed extends Error {}

/** A draft made, or (the schedule's second instance) the round another made for the same day. */
export type DraftOutcome = { drafted: true; round: RoundRow } | { drafted: false; round: RoundRow };

/** Today in the foundation's zone: an operator's draft without --cutoff pays what settled before today. */
export const todayIn = (at: Date, terms: RoundTerms) => dateIn(at, terms.timeZone);

/**
 * Drafts a round in one repeatable-read transaction (docs/grants.md, "Drafting"): the round row first (the open-draft
 * and scheduled-day indexes let one drafter through; another waits, then is refused), each club's sums in one
 * set-based pass, the line decided by the pure rules, then the paid lines' claims in set-based statements that read
 * the same snapshot. A crash anywhere leaves nothing: the claims and the round commit together.
 */
export async function draftRound(
  db: Kysely<DB>,
  terms: RoundTerms,
  request: DraftRequest & { skipIfEmpty: true },
): Promise<DraftOutcome | null>;
export async function draftRound(db: Kysely<DB>, terms: RoundTerms, request: DraftRequest): Promise<DraftOutcome>;
export async function draftRound(
  db: Kysely<DB>,
  terms: RoundTerms,
  request: DraftRequest,
): Promise<DraftOutcome | null> {
  if (!isCalendarDate(request.cutoffDay))
    throw new InvalidInputError(`--cutoff ${JSON.stringify(request.cutoffDay)} is not a date: write it as YYYY-MM-DD.`);
  const cutoffAt = cutoffOf(request.cutoffDay, terms.timeZone);
  if (cutoffAt.getTime() > request.at.getTime() + DAY_MS)
    throw new ConflictError(`The cut-off ${request.cutoffDay} is in the future: a round pays what has settled.`);
  try {
    const round = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await prepareDrafting(trx);
        const made = await insertRound(trx, {
          scheduledOn: request.scheduledOn,
          cutoffAt,
          basis: terms.basis,
          feeBasisPoints: terms.feeBasisPoints,
          minimumCents: terms.minimumCents,
          draftedBy: request.by,
          at: request.at,
        });
        const params = { roundId: made.id, environment: terms.environment, basis: terms.basis, cutoffAt };
        const facts = await clubFacts(trx, {
          ...params,
          holdBefore: new Date(cutoffAt.getTime() - terms.holdDays * DAY_MS),
          day: request.cutoffDay,
        });
        if (facts.length === 0 && request.skipIfEmpty) throw new NothingOwed();
        await insertLines(trx, made.id, linesOf(facts, terms, made.number), request.at);
        await claimForPaidLines(trx, params);
        await setRoundTotals(trx, made.id);
        const round = (await findRoundByNumber(trx, made.number))!;
        await audit(
          { db: trx, operator: request.by, now: () => request.at },
          GrantRoundAuditActions.grantRoundDraft,
          `round:${round.number}`,
          {
            scheduledOn: round.scheduled_on,
            cutoffAt: cutoffAt.toISOString(),
            basis: round.basis,
            totalCents: round.total_cents,
            grants: round.grant_count,
            held: round.held_count,
          },
        );
        return round;
      });
    return { drafted: true, round };
  } catch (err) {
    if (err instanceof NothingOwed) return null;
    if (!isUniqueViolation(err)) throw err;
    return refused(db, request);
  }
}

/** Why the database refused the round: the scheduled day already has one (the job's no-op), or a draft is open. */
async function refused(db: Kysely<DB>, request: DraftRequest): Promise<DraftOutcome> {
  if (request.scheduledOn) {
    const same = await findRoundByScheduledDay(db, request.scheduledOn);
    if (same) return { drafted: false, round: same };
  }
  const open = await openDraft(db);
  throw new ConflictError(
    open
      ? `Round ${open.number} is an open draft (drafted by ${open.drafted_by}): approve or cancel it before drafting another.`
      : 'Another round was being drafted at the same moment: list the rounds and try again if none is open.',
  );
}

function linesOf(facts: readonly ClubFacts[], terms: RoundTerms, roundNumber: number): NewLine[] {
  let paid = 0;
  return facts.map((f) => {
    const line = decideLine(
      {
        donationsCents: BigInt(f.donations_cents),
        recoveredCents: BigInt(f.recovered_cents),
        reissuedCents: BigInt(f.reissued_cents),
        hasVerifiedDetails: f.bank_details_id !== null,
        detailsPayable: f.details_payable,
        paymentReturned: f.payment_returned,
        acquittalOverdue: f.acquittal_overdue,
      },
      { feeBasisPoints: terms.feeBasisPoints, minimumCents: terms.minimumCents },
    );
    const payable = line.holdReason === null;
    return {
      account_id: f.account_id,
      status: payable ? 'payable' : 'held',
      hold_reason: line.holdReason,
      donations_cents: f.donations_cents,
      recovered_cents: f.recovered_cents,
      reissued_cents: f.reissued_cents,
      fee_cents: String(line.feeCents),
      amount_cents: String(line.amountCents),
      donation_count: f.donation_count,
      bank_details_id: f.bank_details_id,
      bsb: f.bsb,
      account_number: f.account_number,
      account_name: f.account_name,
      lodgement_reference: payable ? lodgementReference(roundNumber, ++paid) : null,
    };
  });
}
