/**
 * The reconciliation rules (docs/reconciliation.md and
 * docs/decisions/0031-reconciliation-outcomes-and-exactly-once-settlement.md): what each remittance entry of a batch
 * does to the donations it names. Pure: the caller loads the facts in bulk, this decides, the caller writes in bulk.
 */

import { formatCents } from './money.js';
import type { Outcome } from './remittance-outcomes.js';

export interface EntryToReconcile {
  position: number;
  bankReferenceId: string;
  amountCents: number;
  donationIds: readonly string[];
}

/** What the database knows about a donation id named by the batch. Ids it does not know are absent. */
export interface DonationFacts {
  donationId: string;
  referenceId: string;
  /** Same partner and environment as the batch. */
  own: boolean;
  amountCents: number | null;
  /** What reversals took back of it (docs/reversals.md): entries are matched against the net amount. */
  reversedCents: number;
  /** Bank reference that already settled it (or `direct debit <id>` for a donation a debit collected), if any. */
  settledBy: string | null;
}

/** A bank reference that already settled donations (an earlier batch, or an earlier entry of this one). */
export interface BankReferenceClaim {
  bankReferenceId: string;
  amountCents: number;
  /** Distinct and sorted. */
  donationIds: readonly string[];
  batchId: string;
  position: number;
}

export interface Settlement {
  donationId: string;
  referenceId: string;
  amountCents: number;
}

export interface EntryResult {
  position: number;
  outcome: Outcome;
  detail: string;
  /** Set when this entry settles donations: the bank reference it claims, and the settlements. */
  claim?: BankReferenceClaim;
  settlements: Settlement[];
}

export interface ReconciliationInput {
  batchId: string;
  entries: readonly EntryToReconcile[];
  donations: ReadonlyMap<string, DonationFacts>;
  claims: ReadonlyMap<string, BankReferenceClaim>;
}

/**
 * Decides every entry, in position order, so that the result is the same whenever the batch is run against the
 * same facts. Earlier entries of the batch count as settled for later ones: a donation named by two entries is
 * settled by the first that matches, and the second reports `already_settled`.
 *
 * Precedence when several problems apply to one entry (the first wins; the detail names every problem):
 * bank reference (replay or duplicate) → unknown donation → foreign donation → already settled → amount.
 */
export function reconcileEntries(input: ReconciliationInput): EntryResult[] {
  const claims = new Map(input.claims);
  const settledBy = new Map<string, string>();
  for (const facts of input.donations.values())
    if (facts.settledBy !== null) settledBy.set(facts.referenceId, facts.settledBy);

  return [...input.entries]
    .sort((a, b) => a.position - b.position)
    .map((entry) => {
      const result = decideEntry(entry, input, claims, settledBy);
      if (result.claim) {
        claims.set(entry.bankReferenceId, result.claim);
        for (const s of result.settlements) settledBy.set(s.referenceId, entry.bankReferenceId);
      }
      return result;
    });
}

function decideEntry(
  entry: EntryToReconcile,
  input: ReconciliationInput,
  claims: ReadonlyMap<string, BankReferenceClaim>,
  settledBy: ReadonlyMap<string, string>,
): EntryResult {
  const ids = distinctSorted(entry.donationIds);
  const base = { position: entry.position, settlements: [] as Settlement[] };

  const claim = claims.get(entry.bankReferenceId);
  if (claim) return { ...base, ...claimedAgain(entry, ids, claim, input.batchId) };

  const { problems, own } = entryProblems(entry, ids, input, settledBy);
  const first = problems[0];
  if (first) return { ...base, outcome: first.outcome, detail: problems.map((p) => p.detail).join(' ') };

  const settlements = own.map((d) => ({
    donationId: d.donationId,
    referenceId: d.referenceId,
    amountCents: d.amountCents!,
  }));
  return {
    position: entry.position,
    outcome: 'matched',
    detail: `Settled ${settlements.length} donation${settlements.length === 1 ? '' : 's'}, ${formatCents(entry.amountCents)} AUD.`,
    claim: {
      bankReferenceId: entry.bankReferenceId,
      amountCents: entry.amountCents,
      donationIds: ids,
      batchId: input.batchId,
      position: entry.position,
    },
    settlements,
  };
}

/** An entry whose bank reference is already reconciled: the same transaction again, or a different one. */
function claimedAgain(
  entry: EntryToReconcile,
  ids: string[],
  claim: BankReferenceClaim,
  batchId: string,
): { outcome: Outcome; detail: string } {
  const where =
    claim.batchId === batchId
      ? `entry ${claim.position} of this batch`
      : `batch ${claim.batchId}, entry ${claim.position}`;
  if (claim.amountCents === entry.amountCents && sameIds(claim.donationIds, ids)) {
    // The identical bank transaction posted again: a no-op, not an error
    // (docs/decisions/0031-reconciliation-outcomes-and-exactly-once-settlement.md).
    return { outcome: 'matched', detail: `Already reconciled as ${where}; nothing settled again.` };
  }
  return {
    outcome: 'duplicate_bank_reference',
    detail:
      `Bank reference ${entry.bankReferenceId} was already reconciled as ${where} with amount ${formatCents(claim.amountCents)} AUD ` +
      `and donations ${claim.donationIds.join(', ')}; this entry differs.`,
  };
}

/** What is wrong with an entry whose bank reference is new, and the donations of this partner it names. */
function entryProblems(
  entry: EntryToReconcile,
  ids: string[],
  input: ReconciliationInput,
  settledBy: ReadonlyMap<string, string>,
) {
  const problems: { outcome: Outcome; detail: string }[] = [];
  const unknown = ids.filter((id) => !input.donations.has(id));
  const known = ids.map((id) => input.donations.get(id)).filter((d): d is DonationFacts => d !== undefined);
  const foreign = known.filter((d) => !d.own);
  const own = known.filter((d) => d.own);
  const settled = own.filter((d) => settledBy.has(d.referenceId));
  if (unknown.length > 0) problems.push({ outcome: 'unknown_donation', detail: unknownDetail(unknown) });
  if (foreign.length > 0)
    problems.push({
      outcome: 'foreign_donation',
      detail: `Donations of another partner or environment: ${foreign.map((d) => d.referenceId).join(', ')}.`,
    });
  if (settled.length > 0) {
    const list = settled.map((d) => `${d.referenceId} (by ${settledBy.get(d.referenceId)})`).join(', ');
    problems.push({ outcome: 'already_settled', detail: `${SETTLED_PREFIX}${list}.` });
  }
  // A donation reversed in full is no money to receive: naming it is an exception, whatever the amount says.
  const reversed = own.filter((d) => d.amountCents !== null && d.reversedCents >= d.amountCents);
  if (reversed.length > 0)
    problems.push({
      outcome: 'reversed_donation',
      detail: `${REVERSED_PREFIX}${reversed.map((d) => d.referenceId).join(', ')}.`,
    });
  const amountProblem = unknown.length + foreign.length > 0 ? null : describeAmountProblem(entry.amountCents, own);
  if (amountProblem) problems.push({ outcome: 'amount_mismatch', detail: amountProblem });
  return { problems, own };
}

/**
 * A donation recorded without an amount (the spec makes transaction.amount optional) cannot be proved to add up,
 * so an entry naming one is an amount mismatch: settling it on the bank's word alone would hide a wrong allocation.
 */
function describeAmountProblem(entryCents: number, donations: readonly DonationFacts[]): string | null {
  const missing = donations.filter((d) => d.amountCents === null);
  if (missing.length > 0) {
    return `Donations recorded without an amount cannot be reconciled: ${missing.map((d) => d.referenceId).join(', ')}.`;
  }
  // Net of reversals: a partly refunded donation is remitted for what is left of it.
  const total = donations.reduce((sum, d) => sum + d.amountCents! - d.reversedCents, 0);
  if (total === entryCents) return null;
  const net = donations.some((d) => d.reversedCents > 0) ? ' net of reversals' : '';
  return `Entry amount ${formatCents(entryCents)} AUD differs from the donations' total${net} ${formatCents(total)} AUD.`;
}

const unknownDetail = (ids: readonly string[]) => `Unknown donation ids: ${ids.join(', ')}.`;
const SETTLED_PREFIX = 'Already settled by another bank reference: ';
const REVERSED_PREFIX = 'Reversed in full: ';

/**
 * An entry as the partner that posted it may see it: another partner's donation is reported exactly as an unknown
 * id (outcome and words), so the report is no oracle of which ids exist
 * (docs/decisions/0032-another-partners-objects-look-unknown.md). Operators see the stored outcome. `own` holds the
 * entry's ids that are the partner's donations. The already-settled sentence (about the partner's own donations) is
 * the one that can follow; the amount is never judged when an id is not the partner's.
 */
export function asSeenByPartner<
  E extends { outcome: string | null; detail: string | null; donationIds: readonly string[] },
>(entry: E, own: ReadonlySet<string>): E {
  if (entry.outcome !== 'unknown_donation' && entry.outcome !== 'foreign_donation') return entry;
  const notOwn = distinctSorted(entry.donationIds).filter((id) => !own.has(id));
  const detail = entry.detail ?? '';
  // Everything before the sentences about own donations (settled, reversed) names ids only, and own ids (reference
  // ids we issued) cannot contain them.
  const foreignAt = Math.max(0, detail.indexOf('Donations of another partner or environment: '));
  const ownAt = [detail.indexOf(SETTLED_PREFIX, foreignAt), detail.indexOf(REVERSED_PREFIX, foreignAt)].filter(
    (at) => at >= 0,
  );
  const ownPart = ownAt.length === 0 ? '' : ` ${detail.slice(Math.min(...ownAt))}`;
  return { ...entry, outcome: 'unknown_donation', detail: `${unknownDetail(notOwn)}${ownPart}` };
}

/** A donation listed twice in one entry is one donation (its amount counts once). */
function distinctSorted(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort();
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);
