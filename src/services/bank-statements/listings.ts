import type { BankMatchingSettings } from '../../config/index.js';
import { daysApart } from '../../domain/bank-matching.js';
import { dateIn } from '../../domain/calendar-date.js';
import {
  lineExists,
  listLines,
  listMatches,
  listOpenSuggestions,
  listStatements,
  listUnpaidEntries,
} from '../../infrastructure/repositories/bank-listings.js';
import type { OperatorContext } from '../operators/context.js';
import { decodeCursor, pageOf, type Page } from '../operators/list-cursor.js';
import { InvalidInputError } from '../operators/operator-errors.js';

/** What `fundraiser-admin bank …` and the console's bank pages list, with ages in days (docs/bank-statements.md). */

type Clock = Pick<BankMatchingSettings, 'timeZone'>;

const today = (ctx: OperatorContext, clock: Clock) => dateIn(ctx.now(), clock.timeZone);

/** Whole days from `date` to `now`; 0 for a date not yet reached (a line the bank dated ahead). */
const ageOf = (now: string, date: string) => (date > now ? 0 : daysApart(now, date));

export interface BankLine {
  id: number;
  file: string;
  lineNo: number;
  account: string;
  bookedOn: string;
  ageDays: number;
  direction: 'credit' | 'debit';
  amountCents: number;
  description: string;
  reference: string | null;
  matchId: number | null;
}

export async function bankLines(
  ctx: OperatorContext,
  clock: Clock,
  options: { unmatched: boolean; limit: number; after?: number },
): Promise<BankLine[]> {
  const now = today(ctx, clock);
  if (options.after !== undefined) await requireLine(ctx, options.after);
  return (await listLines(ctx.db, options)).map((l) => ({
    id: Number(l.id),
    file: l.file_name,
    lineNo: l.line_no,
    account: l.account,
    bookedOn: l.booked_on,
    ageDays: ageOf(now, l.booked_on),
    direction: l.credit ? 'credit' : 'debit',
    amountCents: Number(l.amount_cents),
    description: l.description,
    reference: l.reference,
    matchId: l.match_id === null ? null : Number(l.match_id),
  }));
}

/** The line a page of lines starts after (docs/decisions/0074-operators-listings-by-key.md). */
async function requireLine(ctx: OperatorContext, id: number) {
  if (!(await lineExists(ctx.db, id))) throw new InvalidInputError(`after: there is no bank line ${id}.`);
}

export interface UnpaidEntry {
  batchId: string;
  index: number;
  bankReferenceId: string;
  amountCents: number;
  partner: string;
  receivedAt: Date;
  ageDays: number;
}

/** A page of the unpaid entries, oldest batch first; `after` is the `next` of the page before. */
export async function unpaidEntries(
  ctx: OperatorContext,
  clock: Clock,
  page: { limit: number; after?: string },
): Promise<Page<UnpaidEntry>> {
  const now = today(ctx, clock);
  const after = decodeCursor(page.after, ['instant', 'uuid', 'integer'], 'after') as
    [string, string, number] | undefined;
  const rows = await listUnpaidEntries(ctx.db, { limit: page.limit + 1, ...(after ? { after } : {}) });
  return pageOf(
    rows,
    page.limit,
    (e) => [e.received_key, e.batch_id, e.position],
    (e) => ({
      batchId: e.batch_id,
      index: e.position,
      bankReferenceId: e.bank_reference_id,
      amountCents: Number(e.amount_cents),
      partner: e.partner_name,
      receivedAt: new Date(e.created_at),
      ageDays: ageOf(now, dateIn(new Date(e.created_at), clock.timeZone)),
    }),
  );
}

export interface OpenSuggestion {
  id: number;
  rule: string;
  score: number;
  reasons: string;
  lineCents: number;
  entryCents: number;
  lines: { id: number; bookedOn: string; amountCents: number; description: string; reference: string | null }[];
  entries: { batchId: string; index: number; bankReferenceId: string; amountCents: number; partner: string }[];
}

export async function openSuggestions(ctx: OperatorContext, limit: number): Promise<OpenSuggestion[]> {
  return (await listOpenSuggestions(ctx.db, limit)).map((s) => ({
    id: Number(s.id),
    rule: s.rule,
    score: s.score,
    reasons: s.reasons,
    lineCents: Number(s.line_cents),
    entryCents: Number(s.entry_cents),
    lines: s.lines.map((l) => ({
      id: Number(l.id),
      bookedOn: l.booked_on,
      amountCents: Number(l.amount_cents),
      description: l.description,
      reference: l.reference,
    })),
    entries: s.entries.map((e) => ({
      batchId: e.batch_id,
      index: e.position,
      bankReferenceId: e.bank_reference_id,
      amountCents: Number(e.amount_cents),
      partner: e.partner_name,
    })),
  }));
}

export interface BankMatch {
  id: number;
  method: string;
  rule: string;
  lineCents: number;
  entryCents: number;
  decidedBy: string;
  decidedAt: Date;
  unmatched: { by: string; at: Date; reason: string | null } | null;
  lineIds: number[];
  entries: string[];
}

/** Matches newest first; `after`: the last match id of the page before (a page by key). */
export async function bankMatches(ctx: OperatorContext, limit: number, after?: number): Promise<BankMatch[]> {
  return (await listMatches(ctx.db, limit, after)).map((m) => ({
    id: Number(m.id),
    method: m.method,
    rule: m.rule,
    lineCents: Number(m.line_cents),
    entryCents: Number(m.entry_cents),
    decidedBy: m.decided_by,
    decidedAt: new Date(m.decided_at),
    unmatched: m.unmatched_at ? { by: m.unmatched_by!, at: new Date(m.unmatched_at), reason: m.unmatch_reason } : null,
    lineIds: m.line_ids.map(Number),
    entries: m.entry_keys,
  }));
}

export interface BankStatement {
  id: string;
  file: string;
  format: string;
  layout: string;
  statementRef: string | null;
  linesRead: number;
  linesAdded: number;
  firstBookedOn: string | null;
  lastBookedOn: string | null;
  importedBy: string;
  importedAt: Date;
}

export async function bankStatements(ctx: OperatorContext, limit: number): Promise<BankStatement[]> {
  return (await listStatements(ctx.db, limit)).map((s) => ({
    id: s.id,
    file: s.file_name,
    format: s.format,
    layout: s.layout,
    statementRef: s.statement_ref,
    linesRead: s.lines_read,
    linesAdded: s.lines_added,
    firstBookedOn: s.first_booked,
    lastBookedOn: s.last_booked,
    importedBy: s.imported_by,
    importedAt: new Date(s.imported_at),
  }));
}
