import { numberToCents, parseDecimalToCents } from '../../../domain/money.js';
import type { AccountInput, ProductInput } from '../../../infrastructure/repositories/accounts.js';
import { ACTIVATED } from '../../enrolment.js';
import type { ImportProblem } from '../operator-errors.js';
import { isValidAbn, normaliseAbn } from '../../../domain/abn.js';

/**
 * Checks that need more than a schema (ABN checksum, amounts, the exact case of "Activated"), shared by the JSON
 * and CSV readers, which have already validated each row's shape.
 */

/** Where a row is, for problem reports. */
export interface RowRef {
  row: string;
  memberNumber?: string;
}

/** An account read from a file, with where each part came from (channel checks report against those rows). */
export interface ParsedAccount {
  row: string;
  input: AccountInput;
  /** Where the channel of each product in `input.products` was written, in the same order. */
  channelRefs: { row: string; field: string }[];
  /** The club's bank details and GST flag, when the row gives them (docs/grants.md, "Bank details"). */
  club?: ClubColumns;
}

export interface ClubColumns {
  bank?: { bsb: string; accountNumber: string; accountName: string };
  gstRegistered?: boolean;
}

const BANK_FIELDS = ['bsb', 'accountNumber', 'accountName'] as const;

/**
 * The club columns of a row: bank details come as the three fields together (their values are checked against the
 * BSB directory later, with the whole file); GST as a boolean, or yes/no/true/false in a CSV cell.
 */
export function toClubColumns(
  fields: { bsb?: string; accountNumber?: string; accountName?: string; gstRegistered?: boolean | string },
  ref: RowRef,
  problems: ProblemList,
): ClubColumns | undefined {
  const given = BANK_FIELDS.filter((f) => fields[f] !== undefined && fields[f].trim() !== '');
  const club: ClubColumns = {};
  if (given.length === BANK_FIELDS.length)
    club.bank = { bsb: fields.bsb!, accountNumber: fields.accountNumber!, accountName: fields.accountName! };
  else if (given.length > 0)
    for (const missing of BANK_FIELDS.filter((f) => !given.includes(f)))
      problems.add(ref, missing, `is required with ${given.join(' and ')}: bank details are the three fields together`);
  const gst = fields.gstRegistered;
  if (gst !== undefined) club.gstRegistered = typeof gst === 'boolean' ? gst : /^(yes|true)$/i.test(gst);
  return club.bank || club.gstRegistered !== undefined ? club : undefined;
}

export interface ParsedFile {
  accounts: ParsedAccount[];
  problems: ImportProblem[];
}

export class ProblemList {
  readonly items: ImportProblem[] = [];
  add(ref: RowRef, field: string, message: string) {
    this.items.push({ row: ref.row, ...(ref.memberNumber ? { memberNumber: ref.memberNumber } : {}), field, message });
  }
  get size() {
    return this.items.length;
  }
}

/** Product fields once each format has turned its cells into values. */
export interface ProductFields {
  channel: string;
  status: string;
  description?: string;
  logo?: string;
  coverImage?: string;
  donationAmounts?: readonly (number | string)[];
  story?: string;
  campaigns?: Record<string, unknown>;
  productEnrollmentId?: string;
  enrollmentStatus?: string;
}

export function toProduct(fields: ProductFields, ref: RowRef, problems: ProblemList, prefix = ''): ProductInput {
  checkStatus(fields.status, `${prefix}status`, ref, problems);
  return {
    channel: fields.channel,
    status: fields.status,
    description: fields.description ?? '',
    logo: fields.logo ?? null,
    coverImage: fields.coverImage ?? null,
    donationAmountsCents: toCents(fields.donationAmounts ?? [], `${prefix}donationAmounts`, ref, problems),
    story: fields.story ?? null,
    campaigns: fields.campaigns ?? {},
    productEnrollmentId: fields.productEnrollmentId ?? null,
    ...(fields.enrollmentStatus ? { enrollmentStatus: fields.enrollmentStatus } : {}),
  };
}

/** An ABN as 11 digits, or null (with a problem) when it is not a valid one. */
export function toAbn(value: string | undefined, ref: RowRef, problems: ProblemList): string | null {
  if (value === undefined) return null;
  const digits = normaliseAbn(value);
  if (!digits) problems.add(ref, 'abn', `${JSON.stringify(value)} is not 11 digits`);
  else if (!isValidAbn(digits))
    problems.add(ref, 'abn', `${JSON.stringify(value)} fails the ABN checksum (mistyped digit?)`);
  return digits;
}

/** Suggested amounts are AUD with at most two decimals, parsed digit by digit into cents (never through floats). */
function toCents(values: readonly (number | string)[], field: string, ref: RowRef, problems: ProblemList): number[] {
  return values.map((value, i) => {
    const cents = typeof value === 'number' ? numberToCents(value) : parseDecimalToCents(value.trim());
    if (cents === null || cents <= 0) {
      problems.add(
        ref,
        `${field}[${i}]`,
        `${JSON.stringify(value)} is not a positive AUD amount with at most 2 decimals`,
      );
      return 0;
    }
    return cents;
  });
}

/** Only exactly "Activated" counts as an active enrolment; "activated" would silently disable a fundraiser. */
function checkStatus(status: string, field: string, ref: RowRef, problems: ProblemList) {
  if (status !== ACTIVATED && status.trim().toLowerCase() === ACTIVATED.toLowerCase()) {
    problems.add(
      ref,
      field,
      `write ${JSON.stringify(ACTIVATED)} exactly (got ${JSON.stringify(status)}); only that spelling counts as an active enrolment`,
    );
  }
}

/** Drops null members: in an import file, null and absent mean the same. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, k === 'campaigns' ? v : withoutNulls(v)]),
  );
}
