import {
  findDonationRecords,
  totalDonations,
  type DonationRecord,
} from '../../infrastructure/repositories/donation-lookups.js';
import { findSettlement, type SettlementRow } from '../../infrastructure/repositories/remittance-reports.js';
import { listReversalRows, type ReversalRow } from '../../infrastructure/repositories/reversal-admin.js';
import type { OperatorContext } from './context.js';
import { InvalidInputError, NotFoundError } from './operator-errors.js';
import { requirePartner } from './partners.js';
import type { TimeRange } from './time-range.js';

/**
 * Support look-ups: "where is this donation?". Read-only, so nothing here is audited.
 *
 * Settlement (reconciliation against remittances, migration 003) extends DonationDetail with its own section:
 * add the fields there and load them in donationDetail(); the CLI prints every section of the detail.
 */
export type { DonationRecord };

export interface DonationDetail {
  donation: DonationRecord;
  /** Null until a remittance entry settles it (docs/reconciliation.md), or the debit that collected it. */
  settlement: DonationSettlement | null;
  /** Oldest first (docs/reversals.md): what went back, why, who asked, whether it is owed back or repaid. */
  reversals: ReversalRow[];
  reversedCents: number;
  /** Reversed after settlement and not yet repaid. */
  owedBackCents: number;
}

/** A remittance entry's settlement, or a debit's: its money reached the foundation directly (docs/recurring.md). */
export type DonationSettlement =
  | {
      by: 'remittance';
      bankReferenceId: string;
      batchId: string;
      /** Index of the settling entry in its batch. */
      entryIndex: number;
      amountCents: number;
      settledAt: Date;
    }
  | { by: 'debit'; debitId: string; amountCents: number; settledAt: Date };

export async function donationDetail(ctx: OperatorContext, referenceId: string): Promise<DonationDetail> {
  const [donation] = await findDonationRecords(ctx.db, { referenceId, limit: 1 });
  if (!donation) throw new NotFoundError(`No donation with reference id ${JSON.stringify(referenceId)}.`);
  const [settled, reversals] = await Promise.all([
    findSettlement(ctx.db, referenceId),
    listReversalRows(ctx.db, { donationReferenceId: referenceId }),
  ]);
  const sum = (rows: ReversalRow[]) => rows.reduce((total, r) => total + r.amountCents, 0);
  return {
    donation,
    settlement: settled ? toSettlement(settled) : null,
    reversals,
    reversedCents: sum(reversals),
    owedBackCents: sum(reversals.filter((r) => r.owedBack && r.repaidAt === null)),
  };
}

function toSettlement(settled: SettlementRow): DonationSettlement {
  const common = { amountCents: Number(settled.amount_cents), settledAt: new Date(settled.settled_at) };
  if (settled.debit_id !== null) return { by: 'debit', debitId: settled.debit_id, ...common };
  return {
    by: 'remittance',
    bankReferenceId: settled.bank_reference_id ?? '',
    batchId: settled.batch_id ?? '',
    entryIndex: settled.position ?? 0,
    ...common,
  };
}

export interface DonationSearch {
  transactionId?: string;
  donorEmail?: string;
  partner?: string;
  limit: number;
}

/** By the partner's transaction id or the donor's email (at least one), optionally for one partner. */
export async function findDonations(ctx: OperatorContext, search: DonationSearch): Promise<DonationRecord[]> {
  if (!search.transactionId && !search.donorEmail)
    throw new InvalidInputError(
      'Give --transaction-id or --email (or look up one donation with "donations show <referenceId>").',
    );
  const partnerId = search.partner ? (await requirePartner(ctx, search.partner)).id : undefined;
  return findDonationRecords(ctx.db, {
    transactionId: search.transactionId,
    donorEmail: search.donorEmail,
    partnerId,
    limit: search.limit,
  });
}

export interface PartnerDonations {
  partnerName: string;
  range: TimeRange;
  donations: DonationRecord[];
  /** Over the whole range, even when the listing is cut at the limit. */
  count: number;
  totalCents: number;
}

export async function listPartnerDonations(
  ctx: OperatorContext,
  query: { partner: string; range: TimeRange; channel?: string; limit: number },
): Promise<PartnerDonations> {
  const partner = await requirePartner(ctx, query.partner);
  const where = { partnerId: partner.id, channel: query.channel, from: query.range.from, until: query.range.until };
  const [donations, totals] = await Promise.all([
    findDonationRecords(ctx.db, { ...where, limit: query.limit }),
    totalDonations(ctx.db, where),
  ]);
  return { partnerName: partner.name, range: query.range, donations, ...totals };
}
