import type { Kysely } from 'kysely';
import type { BankMatchingSettings } from '../../config/index.js';
import { suggestMatches, type OpenEntry, type OpenLine } from '../../domain/bank-matching.js';
import { suggestionCandidate } from '../../domain/bank-suggestion-candidates.js';
import { addDays, dateIn, startOfDate } from '../../domain/calendar-date.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  dropSettledSuggestions,
  firstBookedOf,
  openCounts,
  openEntriesReceivedBetween,
  previousImportAt,
  rejectedSignatures,
  replaceOpenSuggestions,
  unmatchedCreditLines,
  type OpenEntryRow,
  type OpenLineRow,
} from '../../infrastructure/repositories/bank-suggestions.js';
import { matchByReference, receivedEntries } from '../../infrastructure/repositories/bank-statements.js';
import { recordFundsReceivedInOrder } from './funds-received.js';

export interface MatchingRun {
  /** Lines matched automatically (each to one entry: the same bank reference and the same amount). */
  automatic: number;
  /** Open suggestions after the run. */
  suggestions: number;
  /** Credit lines that pay nothing after the run. */
  unmatchedLines: number;
}

/**
 * A matching run, inside the caller's transaction (which holds lockBankMatching): first the automatic rule over
 * every credit line never matched (one statement, set-based), partners told of the entries received; then the
 * suggestions for every credit line still unmatched, computed from the entries open within the date bound
 * (docs/bank-statements.md, "Matching").
 *
 * With `linesBookedFrom` (an import: docs/decisions/0093-suggestions-for-the-lines-an-import-can-change.md) the
 * suggestions are made again only for the open lines booked from that date; the other lines' open suggestions stay,
 * less those that name a line or an entry matched since. Without it (an operator's decision, which can reopen lines
 * and entries of any date) every open line's are made again.
 */
export async function runMatching(
  trx: Kysely<DB>,
  settings: BankMatchingSettings,
  at: Date,
  linesBookedFrom?: string,
): Promise<MatchingRun> {
  const automatic = await matchByReference(trx, at);
  if (linesBookedFrom !== undefined) await dropSettledSuggestions(trx);
  const lines = await unmatchedCreditLines(trx, linesBookedFrom);
  const suggestions = lines.length === 0 ? [] : await suggestionsFor(trx, lines, settings);
  const ofLines = linesBookedFrom === undefined ? undefined : lines.map((l) => Number(l.id));
  await replaceOpenSuggestions(trx, suggestions, at, ofLines);
  // The partners' events last: each takes its partner's event sequence row (webhook_event_sequences), held until the
  // transaction commits, and every reconciliation of that partner waits for it. Before the suggestions, a statement
  // on three seasons held it through their seconds and reconciliation ran out of its statement timeout
  // (docs/performance/history.md). Read back a page at a time: a large statement pays as many entries as it has lines.
  if (automatic > 0) await recordFundsReceivedInOrder(trx, receivedEntries(trx), { received: true, at, settings });
  if (linesBookedFrom === undefined)
    return { automatic, suggestions: suggestions.length, unmatchedLines: lines.length };
  const open = await openCounts(trx);
  return { automatic, suggestions: open.suggestions, unmatchedLines: open.lines };
}

/**
 * The first booking date whose open lines an import can give new suggestions: a line of the statement, or a line
 * booked within the date bound of a batch received since the statement before was imported; BANK_MATCH_DAYS twice
 * before the earlier of the two, as a suggestion pairs a line and a batch at most that many days apart. Undefined
 * (every open line) for the first statement.
 */
export async function importScope(
  trx: Kysely<DB>,
  statementId: string,
  settings: BankMatchingSettings,
): Promise<string | undefined> {
  const [firstBooked, previous] = await Promise.all([
    firstBookedOf(trx, statementId),
    previousImportAt(trx, statementId),
  ]);
  if (!firstBooked || !previous) return undefined;
  const previousDate = dateIn(previous, settings.timeZone);
  const earliest = firstBooked < previousDate ? firstBooked : previousDate;
  return addDays(earliest, -2 * settings.days);
}

async function suggestionsFor(trx: Kysely<DB>, rows: OpenLineRow[], settings: BankMatchingSettings) {
  const lines: OpenLine[] = rows.map((r) => ({
    id: Number(r.id),
    bookedOn: r.booked_on,
    amountCents: Number(r.amount_cents),
    words: r.tokens,
  }));
  // Only batches received within the date bound of some line can be suggested: read those alone.
  const dates = lines.map((l) => l.bookedOn).sort();
  const from = startOfDate(addDays(dates[0]!, -settings.days), settings.timeZone);
  const to = startOfDate(addDays(dates.at(-1)!, settings.days + 1), settings.timeZone);
  const candidate = suggestionCandidate(lines, settings);
  const toEntry = (e: OpenEntryRow): OpenEntry => ({
    key: `${e.batch_id}:${e.position}`,
    batchId: e.batch_id,
    bankReferenceId: e.bank_reference_id,
    amountCents: Number(e.amount_cents),
    receivedOn: dateIn(new Date(e.created_at), settings.timeZone),
    batchOpenCents: Number(e.batch_open_cents),
  });
  const open = await openEntriesReceivedBetween(trx, from, to, (e) =>
    candidate({
      amountCents: Number(e.amount_cents),
      bankReferenceId: e.bank_reference_id,
      batchOpenCents: Number(e.batch_open_cents),
    }),
  );
  const entries = open.map(toEntry);
  return suggestMatches(lines, entries, settings, await rejectedSignatures(trx));
}
