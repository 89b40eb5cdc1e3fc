import { basename, extname } from 'node:path';
import { crmIdPrefix } from '../../../domain/fundraiser-id.js';
import { accountsByCrmPrefix, existingMemberNumbers } from '../../../infrastructure/repositories/account-admin.js';
import { upsertAccounts } from '../../../infrastructure/repositories/account-writes.js';
import { listChannels } from '../../../infrastructure/repositories/channels.js';
import { AuditActions, audit } from '../audit.js';
import { inTransaction, type OperatorContext } from '../context.js';
import { ImportRejectedError, InvalidInputError, type ImportProblem } from '../operator-errors.js';
import type { BankDetailsSettings } from '../../grants/bank-details/settings.js';
import { applyClubColumns, checkClubColumns, type BankOutcome } from './club-columns.js';
import { ProblemList, type ParsedFile } from './normalise.js';
import { parseCsvAccounts } from './parse-csv.js';
import { parseJsonAccounts } from './parse-json.js';

export type ImportFormat = 'json' | 'csv';

export interface ImportRequest {
  /** Shown in reports and the audit log. */
  fileName: string;
  content: string;
  /** Defaults to the file's extension. */
  format?: ImportFormat;
  /** Validate and report what would change, writing nothing. */
  dryRun?: boolean;
  /** Told after each statement's accounts are written (a progress bar); not called on a dry run. */
  onProgress?: (done: number, total: number) => void;
  /** The hold and time zone of the bank changes the file's bank columns make. */
  bankSettings: BankDetailsSettings;
}

export interface ImportedAccount {
  memberNumber: string;
  name: string;
  action: 'created' | 'updated';
  channels: string[];
  /** What the row's bank details did: a pending change, or nothing (already on file); absent without them. */
  bank?: BankOutcome;
}

export interface ImportSummary {
  file: string;
  format: ImportFormat;
  dryRun: boolean;
  created: number;
  updated: number;
  products: number;
  /** Pending bank changes the file made (or would make, on a dry run). */
  bankChanges: number;
  accounts: ImportedAccount[];
}

/**
 * Imports fundraiser accounts and their products, upserting by member number. All or nothing: every row is
 * checked first (shape, values, channels, CRM ids) and a single bad row rejects the file with a report of every
 * problem; the writes then happen in one transaction. Products of an account that the file does not list are
 * left as they are (change them with "accounts set-product-status").
 */
export async function importAccounts(ctx: OperatorContext, request: ImportRequest): Promise<ImportSummary> {
  const format = request.format ?? formatOf(request.fileName);
  const parsed = format === 'csv' ? parseCsvAccounts(request.content) : parseJsonAccounts(request.content);
  const problems = new ProblemList();
  problems.items.push(...parsed.problems);
  // Rows that parsed are checked against each other and the database even when others did not: one report
  // names every problem the operator has to fix.
  await checkAgainstDatabase(ctx, parsed, problems);
  const bankDetails = await checkClubColumns(ctx, parsed, problems);
  if (parsed.accounts.length === 0 && problems.size === 0) problems.add({ row: 'file' }, '(file)', 'holds no accounts');
  if (problems.size > 0) throw new ImportRejectedError(request.fileName, inFileOrder(problems.items));

  const run = async (tx: OperatorContext) => {
    const existing = await existingMemberNumbers(
      tx.db,
      parsed.accounts.map((a) => a.input.memberNumber),
    );
    const accounts: ImportedAccount[] = parsed.accounts.map(({ input }) => ({
      memberNumber: input.memberNumber,
      name: input.name,
      action: existing.has(input.memberNumber) ? 'updated' : 'created',
      channels: input.products.map((p) => p.channel),
    }));
    const summary: ImportSummary = {
      file: request.fileName,
      format,
      dryRun: Boolean(request.dryRun),
      created: accounts.filter((a) => a.action === 'created').length,
      updated: accounts.filter((a) => a.action === 'updated').length,
      products: parsed.accounts.reduce((n, a) => n + a.input.products.length, 0),
      bankChanges: 0,
      accounts,
    };
    const total = parsed.accounts.length;
    if (!request.dryRun)
      await upsertAccounts(
        tx.db,
        parsed.accounts.map((a) => a.input),
        (done) => request.onProgress?.(done, total),
      );
    const bank = await applyClubColumns(tx, request.bankSettings, parsed, bankDetails, Boolean(request.dryRun));
    for (const account of accounts) if (bank.has(account.memberNumber)) account.bank = bank.get(account.memberNumber);
    summary.bankChanges = [...bank.values()].filter((outcome) => outcome === 'pending').length;
    if (request.dryRun) return summary;
    await audit(tx, AuditActions.accountsImport, basename(request.fileName), {
      file: request.fileName,
      format,
      created: summary.created,
      updated: summary.updated,
      products: summary.products,
      bankChanges: summary.bankChanges,
      memberNumbers: accounts.map((a) => a.memberNumber),
    });
    return summary;
  };
  return request.dryRun ? run(ctx) : inTransaction(ctx, run);
}

function formatOf(fileName: string): ImportFormat {
  const extension = extname(fileName).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.csv') return 'csv';
  throw new InvalidInputError(
    `Cannot tell the format of ${fileName} from its extension; pass --format json or --format csv.`,
  );
}

/** Checks that need the database or the whole file: known channels, one record per member, unique CRM ids. */
async function checkAgainstDatabase(ctx: OperatorContext, parsed: ParsedFile, problems: ProblemList) {
  const channels = new Set(await listChannels(ctx.db));
  const firstRowOfMember = new Map<string, string>();
  const memberOfCrmPrefix = new Map<string, { member: string; row: string }>();

  for (const account of parsed.accounts) {
    const { input } = account;
    const ref = { row: account.row, memberNumber: input.memberNumber };
    const earlier = firstRowOfMember.get(input.memberNumber);
    if (earlier)
      problems.add(
        ref,
        'memberNumber',
        `${input.memberNumber} appears again (first on ${earlier}); list each account once`,
      );
    else firstRowOfMember.set(input.memberNumber, account.row);

    input.products.forEach((product, i) => {
      if (!channels.has(product.channel)) {
        const { row, field } = account.channelRefs[i]!;
        problems.add(
          { row, memberNumber: input.memberNumber },
          field,
          `${JSON.stringify(product.channel)} is not a known channel (${[...channels].map((c) => JSON.stringify(c)).join(', ')})`,
        );
      }
    });

    const prefix = input.crmId ? crmIdPrefix(input.crmId) : null;
    if (prefix) {
      const other = memberOfCrmPrefix.get(prefix);
      if (other && other.member !== input.memberNumber)
        problems.add(ref, 'crmId', `${input.crmId} is also given to member ${other.member} on ${other.row}`);
      else memberOfCrmPrefix.set(prefix, { member: input.memberNumber, row: account.row });
    }
  }

  const holders = await accountsByCrmPrefix(ctx.db, [...memberOfCrmPrefix.keys()]);
  for (const [prefix, { member, row }] of memberOfCrmPrefix) {
    const holder = holders.get(prefix);
    if (holder && holder !== member)
      problems.add({ row, memberNumber: member }, 'crmId', `CRM id ${prefix}… already belongs to member ${holder}`);
  }
}

/** Problems of the whole file first, then by line or record number (a stable sort keeps each row's field order). */
function inFileOrder(problems: ImportProblem[]): ImportProblem[] {
  const position = (p: ImportProblem) => Number(/\d+/.exec(p.row)?.[0] ?? 0);
  return [...problems].sort((a, b) => position(a) - position(b));
}
