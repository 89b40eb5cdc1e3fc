import type { Readable } from 'node:stream';
import { addDays, isCalendarDate, startOfDate } from '../../domain/calendar-date.js';
import { formatCents } from '../../domain/money.js';
import { registerPage, type RegisterRow } from '../../infrastructure/repositories/grants.js';
import { AuditActions, audit } from '../operators/audit.js';
import type { OperatorContext } from '../operators/context.js';
import { InvalidInputError } from '../operators/operator-errors.js';
import { csvStream, neutraliseCell } from '../reconciliation/remittance-csv.js';
import { maskedAccount } from './rounds/view.js';

/** The grants register for the auditor (docs/grants.md, "The register"): one row per grant line, as CSV. */

export const GRANT_REGISTER_COLUMNS = [
  'round',
  'roundStatus',
  'scheduledOn',
  'cutoffAt',
  'approvedAt',
  'memberNumber',
  'club',
  'status',
  'holdReason',
  'donationCount',
  'donationsAud',
  'recoveredAud',
  'reissuedAud',
  'feeAud',
  'amountAud',
  'lodgementReference',
  'bsb',
  'account',
  'paidAt',
  'returnedAt',
  'returnReason',
  'rctiNumber',
] as const;

const PAGE = 2_000;
const iso = (value: Date | string | null) => (value === null ? '' : new Date(value).toISOString());
const aud = (cents: string) => formatCents(Number(cents));

function record(r: RegisterRow): string[] {
  return [
    String(r.round_number),
    r.round_status,
    r.scheduled_on ?? '',
    iso(r.cutoff_at),
    iso(r.approved_at),
    r.member_number,
    r.club_name,
    r.status,
    r.hold_reason ?? '',
    String(r.donation_count),
    aud(r.donations_cents),
    aud(r.recovered_cents),
    aud(r.reissued_cents),
    aud(r.fee_cents),
    aud(r.amount_cents),
    r.lodgement_reference ?? '',
    r.bsb ?? '',
    maskedAccount(r.account_number) ?? '',
    r.status === 'paid' || r.status === 'returned' ? iso(r.paid_at) : '',
    iso(r.returned_at),
    r.return_reason ?? '',
    r.rcti_number ?? '',
  ].map(neutraliseCell);
}

function day(value: string | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isCalendarDate(value.trim()))
    throw new InvalidInputError(`${option} ${JSON.stringify(value)} is not a date: write it as YYYY-MM-DD.`);
  return value.trim();
}

/**
 * The register of the rounds whose cut-off day is from `from` to `to` (inclusive, in the foundation's zone; all when
 * omitted), streamed a page at a time (RFC 4180, CRLF, formula-like cells neutralised). Audited.
 */
export async function grantRegisterCsv(
  ctx: OperatorContext,
  request: { from?: string; to?: string; timeZone: string },
): Promise<Readable> {
  const [from, to] = [day(request.from, '--from'), day(request.to, '--to')];
  if (from && to && from > to) throw new InvalidInputError('--from is after --to.');
  const range = {
    from: from ? startOfDate(from, request.timeZone) : new Date(0),
    to: to ? startOfDate(addDays(to, 1), request.timeZone) : new Date('9999-12-31T00:00:00Z'),
  };
  await audit(ctx, AuditActions.grantRegisterExport, 'grants:register', { from: from ?? null, to: to ?? null });
  async function* pages(): AsyncIterable<string[][]> {
    let after: [number, string] = [0, ''];
    for (;;) {
      const rows = await registerPage(ctx.db, { ...range, after, limit: PAGE });
      if (rows.length === 0) return;
      yield rows.map(record);
      const last = rows[rows.length - 1]!;
      after = [last.round_number, last.member_number];
    }
  }
  return csvStream(pages(), GRANT_REGISTER_COLUMNS);
}
