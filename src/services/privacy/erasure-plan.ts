import { receiptHeldUntil, receiptHoldFrom } from '../../domain/privacy.js';
import type { KeptItem } from '../../infrastructure/repositories/erasure-requests.js';
import type { ErasedRefs, Holdings } from '../../infrastructure/repositories/privacy-erasure.js';

export interface ErasurePlan {
  erase: ErasedRefs;
  /** What the law requires kept, why and until when. */
  kept: KeptItem[];
  /** Mandates with a live plan: the request is refused until the plans are cancelled. */
  liveMandates: string[];
  /** Per partner and environment, the references of what is erased: what each partner's `donor.erased` says. */
  byOwner: { partnerId: string; environment: string; donations: string[]; mandates: string[] }[];
}

const RECEIPT_WHY =
  'a deductible-gift receipt is kept five years from the end of the financial year it was issued in (tax law)';

/**
 * What an erasure of `holdings` does at `now` (docs/privacy.md, "An erasure request"): everything no law requires kept
 * is erased; a donation whose receipt is inside its five years is kept with its receipts until the last of them is
 * out (docs/decisions/0070-statutory-years-counted-from-the-financial-year-end.md), as is a statement; a mandate
 * with a live plan stops the erasure. Pure.
 */
export function planErasure(holdings: Holdings, now: Date, timeZone: string): ErasurePlan {
  const holdFrom = receiptHoldFrom(now, timeZone);
  const erase: ErasedRefs = { donations: [], mandates: [], statements: [], mail: holdings.mail.map((m) => m.id) };
  const kept: KeptItem[] = [];
  const owners = new Map<string, ErasurePlan['byOwner'][number]>();
  const owner = (partnerId: string, environment: string) => {
    const key = `${partnerId}/${environment}`;
    if (!owners.has(key)) owners.set(key, { partnerId, environment, donations: [], mandates: [] });
    return owners.get(key)!;
  };

  for (const donation of holdings.donations) {
    const receipts = holdings.receipts.filter((r) => r.donationId === donation.id);
    const held = receipts.filter((r) => r.issuedAt >= holdFrom);
    if (held.length === 0) {
      erase.donations.push(donation.id);
      owner(donation.partnerId, donation.environment).donations.push(donation.referenceId);
      continue;
    }
    const until = held.map((r) => receiptHeldUntil(r.issuedAt, timeZone)).sort()[held.length - 1]!;
    kept.push({ kind: 'donation', ref: donation.referenceId, why: `its receipt is kept: ${RECEIPT_WHY}`, until });
    for (const receipt of receipts)
      kept.push({
        kind: 'receipt',
        ref: receipt.number,
        why: RECEIPT_WHY,
        until: receiptHeldUntil(receipt.issuedAt, timeZone),
      });
  }
  const liveMandates = holdings.mandates.filter((m) => m.livePlans > 0).map((m) => m.id);
  for (const mandate of holdings.mandates) {
    if (mandate.livePlans > 0) continue;
    erase.mandates.push(mandate.id);
    owner(mandate.partnerId, mandate.environment).mandates.push(mandate.id);
  }
  for (const statement of holdings.statements) {
    if (statement.issuedAt < holdFrom) erase.statements.push(statement.id);
    else
      kept.push({
        kind: 'statement',
        ref: statement.financialYear,
        why: `the end-of-year statement lists receipts: ${RECEIPT_WHY}`,
        until: receiptHeldUntil(statement.issuedAt, timeZone),
      });
  }
  return { erase, kept, liveMandates, byOwner: [...owners.values()] };
}

/** How many rows of each kind a plan erases (the audit log's details: counts, never who). */
export const erasedCounts = (erase: ErasedRefs) => ({
  donations: erase.donations.length,
  mandates: erase.mandates.length,
  statements: erase.statements.length,
  mail: erase.mail.length,
});
