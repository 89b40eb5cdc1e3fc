import type { Kysely } from 'kysely';
import { lodgementReferencesIn } from '../../domain/grants/lodgement.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { confirmRound } from '../../infrastructure/repositories/grant-rounds.js';
import {
  confirmGrant,
  linesPayingRounds,
  linesWithLodgementReferences,
  lockGrantByReference,
} from '../../infrastructure/repositories/grants.js';
import { AuditActions, audit } from '../operators/audit.js';
import { recordReturn } from './returns.js';

export interface GrantPayments {
  roundsConfirmed: number;
  grantsConfirmed: number;
  grantsReturned: number;
}

/**
 * Run by the statement import on the lines it just added (docs/grants.md, "Bank confirmation and returns"), in its
 * transaction: a debit line of an approved round's total (booked on or after its approval) confirms the round; a
 * debit line of a grant's amount carrying its lodgement reference confirms that grant; a credit line carrying a paid
 * grant's lodgement reference is that payment coming back. Two statements over the new lines only, so it stays cheap.
 */
export async function confirmGrantPayments(
  trx: Kysely<DB>,
  statementId: string,
  context: { timeZone: string; by: string; at: Date },
): Promise<GrantPayments> {
  const outcome: GrantPayments = { roundsConfirmed: 0, grantsConfirmed: 0, grantsReturned: 0 };
  const used = new Set<string>();
  for (const pair of await linesPayingRounds(trx, statementId, context.timeZone)) {
    if (used.has(pair.line_id)) continue;
    if (!(await confirmRound(trx, pair.round_id, pair.line_id, context.at))) continue;
    used.add(pair.line_id);
    outcome.roundsConfirmed += 1;
    await audit(
      { db: trx, operator: context.by, now: () => context.at },
      AuditActions.grantBankConfirmed,
      `round:${pair.round_number}`,
      { bankLineId: pair.line_id },
    );
  }
  for (const line of await linesWithLodgementReferences(trx, statementId)) {
    if (used.has(line.id)) continue;
    for (const reference of lodgementReferencesIn(line.text)) {
      const grant = await lockGrantByReference(trx, reference);
      if (!grant || String(grant.amount_cents) !== line.amount_cents) continue;
      if (line.credit) {
        const reason = 'returned by the bank';
        if (await recordReturn(trx, grant, { at: context.at, by: context.by, reason, lineId: line.id }))
          outcome.grantsReturned += 1;
      } else if (await confirmGrant(trx, grant.id, line.id)) {
        outcome.grantsConfirmed += 1;
        await audit(
          { db: trx, operator: context.by, now: () => context.at },
          AuditActions.grantBankConfirmed,
          `grant:${reference}`,
          { bankLineId: line.id },
        );
      }
      break;
    }
  }
  return outcome;
}
