import type { Readable } from 'node:stream';
import type { ReceiptPolicy } from '../../config/receipts.js';
import { isFinancialYear } from '../../domain/financial-year.js';
import { formatCents } from '../../domain/money.js';
import type { MailMessage } from '../../infrastructure/db/schema-receipts.js';
import { countByStatus, listMessages } from '../../infrastructure/repositories/mail-outbox.js';
import { receiptNumberOf, registerPage } from '../../infrastructure/repositories/receipts.js';
import { csvStream, neutraliseCell } from '../reconciliation/remittance-csv.js';
import { issueYearStatements } from '../receipts/statements.js';
import { AuditActions, audit } from './audit.js';
import type { OperatorContext } from './context.js';
import { InvalidInputError } from './operator-errors.js';

/**
 * The register for the auditor, end-of-year statements on demand and the mail outbox (docs/receipts.md,
 * "Operators"): what `fundraiser-admin receipts export|statement|outbox` and the console's pages show.
 */

const REGISTER_CSV_COLUMNS = [
  'number',
  'financialYear',
  'sequence',
  'status',
  'issuedAt',
  'issueReason',
  'replaces',
  'donationReferenceId',
  'giftDate',
  'amountAud',
  'donorName',
  'donorBusinessName',
  'donorEmail',
  'fundraiserId',
  'fundraiserName',
  'voidedAt',
  'voidReason',
  'voidedBy',
] as const;

const PAGE = 2000;

function requireYear(year: string): string {
  const value = year.trim();
  if (!isFinancialYear(value))
    throw new InvalidInputError(`${JSON.stringify(year)} is not a financial year: write it as 2026-27.`);
  return value;
}

/** Which series operators of this environment read: real receipts in production, samples elsewhere. */
const seriesOf = (production: boolean) => (production ? 'live' : 'sample');

/**
 * A financial year's register as CSV, in number order (gapless: a missing number would show), every receipt ever
 * issued, void ones included with why and by whom (RFC 4180, CRLF, formula-like cells neutralised). Audited.
 */
export async function registerCsv(
  ctx: OperatorContext,
  request: { year: string; production: boolean },
): Promise<Readable> {
  const year = requireYear(request.year);
  const series = seriesOf(request.production);
  await audit(ctx, AuditActions.receiptExport, `register:${series}:${year}`, { series, year });
  return csvStream(neutralised(registerRecords(ctx, series, year)), REGISTER_CSV_COLUMNS);
}

/** The same register as `registerCsv`, as one object per receipt keyed by the CSV's column names. Audited. */
export async function registerJson(
  ctx: OperatorContext,
  request: { year: string; production: boolean },
): Promise<Record<string, string>[]> {
  const year = requireYear(request.year);
  const series = seriesOf(request.production);
  await audit(ctx, AuditActions.receiptExport, `register:${series}:${year}`, { series, year });
  const receipts: Record<string, string>[] = [];
  for await (const page of registerRecords(ctx, series, year))
    for (const record of page) receipts.push(Object.fromEntries(REGISTER_CSV_COLUMNS.map((c, i) => [c, record[i]!])));
  return receipts;
}

async function* neutralised(pages: AsyncIterable<string[][]>): AsyncIterable<string[][]> {
  for await (const page of pages) yield page.map((record) => record.map(neutraliseCell));
}

async function* registerRecords(ctx: OperatorContext, series: string, year: string): AsyncIterable<string[][]> {
  const numbers = new Map<string, string>();
  let after = 0;
  for (;;) {
    const rows = await registerPage(ctx.db, { series, year, after, limit: PAGE });
    if (rows.length === 0) return;
    const records: string[][] = [];
    for (const r of rows) {
      numbers.set(r.id, r.number);
      const replaces = r.replaces_id
        ? (numbers.get(r.replaces_id) ?? (await receiptNumberOf(ctx.db, r.replaces_id)))
        : null;
      records.push([
        r.number,
        r.financial_year,
        String(r.sequence),
        r.voided_at === null ? 'in force' : 'void',
        new Date(r.issued_at).toISOString(),
        r.issue_reason,
        replaces ?? '',
        r.donation_reference_id,
        r.gift_date,
        formatCents(Number(r.amount_cents)),
        r.donor_name,
        r.donor_business_name ?? '',
        r.donor_email,
        r.fundraiser_id,
        r.fundraiser_name,
        r.voided_at === null ? '' : new Date(r.voided_at).toISOString(),
        r.void_reason ?? '',
        r.voided_by ?? '',
      ]);
    }
    yield records;
    after = rows[rows.length - 1]!.sequence;
  }
}

/**
 * Issues a financial year's end-of-year statements now (only those missing), or one donor's: sent again as it was
 * when it exists. Audited with the year and the counts (never the address).
 */
export async function statementsOnDemand(
  ctx: OperatorContext,
  request: { year: string; email?: string; policy: ReceiptPolicy; production: boolean },
): Promise<{ issued: number; resent: number }> {
  const year = requireYear(request.year);
  const email = request.email?.trim();
  if (email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(email))
    throw new InvalidInputError(`${JSON.stringify(request.email)} is not an e-mail address.`);
  const outcome = await issueYearStatements(ctx.db, {
    year,
    ...(email ? { email } : {}),
    policy: request.policy,
    production: request.production,
    requestedBy: ctx.operator,
  });
  await audit(ctx, AuditActions.receiptStatement, `statements:${year}`, { oneDonor: Boolean(email), ...outcome });
  return outcome;
}

export type OutboxMessage = Omit<MailMessage, 'text_body' | 'html_body'>;

const STATUSES = ['pending', 'held', 'sent', 'failed'];

/** Days of sent messages the outbox counts: the count of every message ever sent grew with the history. */
export const SENT_COUNT_DAYS = 7;

/**
 * The mail outbox: messages not sent yet (or those of one status), newest first, the count of each status waiting,
 * and of the messages sent in the last SENT_COUNT_DAYS days.
 */
export async function mailOutbox(
  ctx: OperatorContext,
  filter: { status?: string; limit: number },
): Promise<{ counts: Record<string, number>; messages: OutboxMessage[] }> {
  const status = filter.status?.trim() || undefined;
  if (status !== undefined && !STATUSES.includes(status))
    throw new InvalidInputError(`${JSON.stringify(status)} is not a status: use one of ${STATUSES.join(', ')}.`);
  const [counts, messages] = await Promise.all([
    countByStatus(ctx.db, new Date(ctx.now().getTime() - SENT_COUNT_DAYS * 86_400_000)),
    listMessages(ctx.db, { ...(status ? { status } : {}), limit: filter.limit }),
  ]);
  return { counts, messages };
}
