import type { AbaPayer } from '../../../config/index.js';
import { dateIn } from '../../../domain/calendar-date.js';
import { lockRound, updateRoundIf } from '../../../infrastructure/repositories/grant-rounds.js';
import { payableLines } from '../../../infrastructure/repositories/grants.js';
import { AuditActions, audit } from '../../operators/audit.js';
import { inTransaction, type OperatorContext } from '../../operators/context.js';
import { ConflictError, NotFoundError, OperatorError } from '../../operators/operator-errors.js';
import { makeAbaFile } from '../aba/make-aba.js';
import { requireAdmin } from './admins.js';
import { roundView, type RoundView } from './view.js';

const same = (a: string | null, b: string) => a !== null && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Approves a reviewed draft: an admin who neither drafted nor reviewed it (four eyes; the table's check says so too,
 * docs/decisions/0064-grant-rounds-approved-by-a-second-admin.md). The bank's file is made now, once, and kept with
 * the round: downloaded again it is the same bytes. From here the round never changes but for its payment.
 */
export async function approveRound(
  ctx: OperatorContext,
  number: number,
  settings: { payer: AbaPayer; timeZone: string },
): Promise<RoundView> {
  return inTransaction(ctx, async (tx) => {
    const approver = await requireAdmin(tx.db, tx.operator, 'approve a grant round');
    const round = await lockRound(tx.db, number);
    if (!round) throw new NotFoundError(`There is no grant round ${number}.`);
    if (round.status !== 'draft')
      throw new ConflictError(`Round ${number} is ${round.status}: only a draft can be approved, and only once.`);
    if (round.reviewed_by === null)
      throw new OperatorError(`Round ${number} has not been reviewed: an admin reviews it first (grants review).`);
    if (same(round.drafted_by, approver))
      throw new OperatorError(`${approver} cannot approve round ${number}: they drafted it. Another admin must.`);
    if (same(round.reviewed_by, approver))
      throw new OperatorError(`${approver} cannot approve round ${number}: they reviewed it. Another admin must.`);
    const at = tx.now();
    const lines = await payableLines(tx.db, round.id);
    const file =
      lines.length === 0
        ? null
        : makeAbaFile(
            {
              number: round.number,
              processOn: dateIn(at, settings.timeZone),
              payments: lines.map((l) => ({
                bsb: l.bsb!,
                accountNumber: l.account_number!,
                accountName: l.account_name!,
                lodgementReference: l.lodgement_reference!,
                amountCents: BigInt(l.amount_cents),
              })),
            },
            settings.payer,
          );
    const change = {
      status: 'approved' as const,
      approved_by: approver,
      approved_at: at,
      aba_file: file?.bytes ?? null,
      aba_sha256: file?.sha256 ?? null,
    };
    if (!(await updateRoundIf(tx.db, round.id, 'draft', change)))
      throw new ConflictError(`Round ${number} changed while it was being approved: show it again.`);
    await audit(tx, AuditActions.grantRoundApprove, `round:${number}`, {
      totalCents: String(round.total_cents),
      grants: round.grant_count,
      abaSha256: file?.sha256 ?? null,
    });
    return roundView({ ...round, ...change });
  });
}
