import type { Kysely } from 'kysely';
import type { BankMatchingSettings } from '../../config/index.js';
import { signatureOf } from '../../domain/bank-matching.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  entriesByKeys,
  insertMatch,
  linesByIds,
  linesInMatches,
  lockMatch,
  markUnmatched,
  parseEntryKey,
  type EntryKey,
} from '../../infrastructure/repositories/bank-matches.js';
import {
  decideSuggestion,
  dropOpenSuggestionsTouching,
  insertRejection,
  lockSuggestion,
} from '../../infrastructure/repositories/bank-suggestions.js';
import { lockBankMatching } from '../../infrastructure/repositories/bank-statements.js';
import { AuditActions, audit } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../operators/operator-errors.js';
import { recordFundsReceived } from './funds-received.js';
import { runMatching, type MatchingRun } from './matching.js';

/**
 * What operators decide about matches (docs/bank-statements.md, "Decisions"): confirm or reject a suggestion, undo a
 * match with a reason, run the matching again. Each is one transaction with its audit entry and, when entries'
 * money changes state, the partners' `remittance.funds_received` events.
 */

export interface ConfirmedMatch {
  matchId: number;
  suggestionId: number;
  lineIds: number[];
  entries: EntryKey[];
}

export async function confirmSuggestion(
  ctx: OperatorContext,
  settings: BankMatchingSettings,
  suggestionId: number,
): Promise<ConfirmedMatch> {
  return inTransaction(ctx, async (tx) => {
    await lockBankMatching(tx.db);
    const suggestion = await openSuggestion(tx.db, suggestionId);
    const lineIds = suggestion.line_ids.map(Number);
    const keys = suggestion.entry_keys.map(parseEntryKey);
    const lines = await linesByIds(tx.db, lineIds);
    const entries = await entriesByKeys(tx.db, keys);
    const taken = entries.find((e) => e.match_id !== null || e.outcome !== 'matched');
    const paying = (await linesInMatches(tx.db, lineIds))[0];
    const why = taken
      ? `entry ${taken.batch_id} #${taken.position} is already received`
      : paying
        ? `line ${paying.line_id} already pays through match ${paying.match_id}`
        : lines.length !== lineIds.length || entries.length !== keys.length
          ? 'a line or an entry is gone'
          : null;
    if (why)
      throw new ConflictError(
        `Suggestion ${suggestionId} can no longer be confirmed: ${why}. Run \`bank match\` for fresh suggestions.`,
      );
    const at = ctx.now();
    // One line paying several entries is allocated each entry's amount; several lines paying one entry, each line's.
    const matchId = await insertMatch(tx.db, {
      method: 'confirmed',
      rule: suggestion.rule,
      suggestionId,
      by: ctx.operator,
      at,
      lines: lines.map((l) => ({ id: Number(l.id), cents: Number(l.amount_cents) })),
      entries: entries.map((e) => ({ batchId: e.batch_id, position: e.position, cents: Number(e.amount_cents) })),
    }).catch(alreadyMatched(suggestionId));
    await decideSuggestion(tx.db, suggestionId, { status: 'confirmed', by: ctx.operator, at, reason: null });
    await dropOpenSuggestionsTouching(tx.db, lineIds, suggestion.entry_keys);
    await recordFundsReceived(tx.db, entries, { received: true, at, settings });
    await audit(tx, AuditActions.bankConfirm, `match ${matchId}`, {
      suggestionId,
      rule: suggestion.rule,
      score: suggestion.score,
      lineIds,
      entries: suggestion.entry_keys,
    });
    return { matchId, suggestionId, lineIds, entries: keys };
  });
}

export async function rejectSuggestion(ctx: OperatorContext, suggestionId: number, reason?: string) {
  return inTransaction(ctx, async (tx) => {
    await lockBankMatching(tx.db);
    const suggestion = await openSuggestion(tx.db, suggestionId);
    await decideSuggestion(tx.db, suggestionId, {
      status: 'rejected',
      by: ctx.operator,
      at: ctx.now(),
      reason: reason?.trim() || null,
    });
    await audit(tx, AuditActions.bankReject, `suggestion ${suggestionId}`, {
      rule: suggestion.rule,
      lineIds: suggestion.line_ids.map(Number),
      entries: suggestion.entry_keys,
      reason: reason?.trim() || null,
    });
    return { suggestionId, status: 'rejected' as const };
  });
}

/**
 * Undoes a match: its lines pay nothing and its entries' money is no longer received. The same lines and entries
 * are never suggested together again, and its lines are never matched automatically again; the run that follows
 * suggests what else they could be.
 */
export async function unmatch(
  ctx: OperatorContext,
  settings: BankMatchingSettings,
  matchId: number,
  reason: string,
): Promise<{ matchId: number; run: MatchingRun }> {
  if (reason.trim() === '') throw new InvalidInputError('Say why the match is undone (--reason).');
  return inTransaction(ctx, async (tx) => {
    await lockBankMatching(tx.db);
    const found = await lockMatch(tx.db, matchId);
    if (!found) throw new NotFoundError(`No bank match ${matchId}.`);
    if (found.match.unmatched_at) throw new ConflictError(`Match ${matchId} was already undone.`);
    const at = ctx.now();
    const undo = { by: ctx.operator, at, reason: reason.trim() };
    await markUnmatched(tx.db, matchId, undo);
    const lineIds = found.lines.map((l) => Number(l.line_id));
    const entryKeys = found.entries.map((e) => `${e.batch_id}:${e.position}`);
    await insertRejection(tx.db, {
      rule: found.match.rule === 'reference' ? 'one_to_one' : found.match.rule,
      lineIds,
      entryKeys,
      signature: signatureOf(lineIds, entryKeys),
      score: 0,
      reasons: `match ${matchId} undone`,
      lineCents: Number(found.match.line_cents),
      entryCents: Number(found.match.entry_cents),
      ...undo,
    });
    const entries = await entriesByKeys(
      tx.db,
      found.entries.map((e) => ({ batchId: e.batch_id, position: e.position })),
    );
    await recordFundsReceived(tx.db, entries, { received: false, at, settings });
    await audit(tx, AuditActions.bankUnmatch, `match ${matchId}`, { lineIds, entries: entryKeys, reason: undo.reason });
    return { matchId, run: await runMatching(tx.db, settings, at) };
  });
}

/** Matches again every line not matched: after remittances arrived that earlier statements paid. */
export async function matchAgain(ctx: OperatorContext, settings: BankMatchingSettings): Promise<MatchingRun> {
  return inTransaction(ctx, async (tx) => {
    await lockBankMatching(tx.db);
    const run = await runMatching(tx.db, settings, ctx.now());
    await audit(tx, AuditActions.bankMatch, null, { ...run });
    return run;
  });
}

async function openSuggestion(db: Kysely<DB>, suggestionId: number) {
  const suggestion = await lockSuggestion(db, suggestionId);
  if (!suggestion) throw new NotFoundError(`No suggestion ${suggestionId}; \`bank suggestions\` lists the open ones.`);
  if (suggestion.status !== 'open')
    throw new ConflictError(`Suggestion ${suggestionId} was already ${suggestion.status} by ${suggestion.decided_by}.`);
  return suggestion;
}

/** The partial unique indexes refused the match: a line or entry was taken since (a race the lock rules out). */
const alreadyMatched = (suggestionId: number) => (err: unknown) => {
  if ((err as { code?: string }).code === '23505')
    throw new ConflictError(
      `Suggestion ${suggestionId} can no longer be confirmed: a line or entry is already matched.`,
    );
  throw err;
};
