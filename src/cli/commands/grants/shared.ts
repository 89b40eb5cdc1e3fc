/** What the grant-round subcommands share: how a round and its lines are shown, and writing a file once. */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { RoundReview } from '../../../services/grants/rounds/review.js';
import type { GrantLineView, RoundView } from '../../../services/grants/rounds/view.js';
import { OperatorError } from '../../../services/operators/operator-errors.js';
import { wholeNumber } from '../../options.js';
import { fields, formatAud, tableOr, type Column } from '../../output.js';

export const withRound = (command: Command) =>
  command.requiredOption('--round <number>', 'the round number (grants rounds lists them)', wholeNumber(1));

const aud = (cents: string) => formatAud(Number(cents));

export const roundColumns: Column<RoundView>[] = [
  { header: 'Round', value: (r) => r.number },
  { header: 'Status', value: (r) => r.status },
  { header: 'Scheduled', value: (r) => r.scheduledOn },
  { header: 'Cut-off', value: (r) => r.cutoffAt },
  { header: 'Grants', value: (r) => r.grantCount },
  { header: 'Held', value: (r) => r.heldCount },
  { header: 'AUD', value: (r) => aud(r.totalCents) },
  { header: 'Drafted by', value: (r) => r.draftedBy },
  { header: 'Approved by', value: (r) => r.approvedBy },
];

export function roundText(r: RoundView): string {
  return fields([
    ['Round', r.number],
    ['Status', r.status],
    ['Scheduled day', r.scheduledOn],
    ['Cut-off', r.cutoffAt],
    ['Basis', r.basis],
    ['Fee', `${(r.feeBasisPoints / 100).toFixed(2)} %`],
    ['Minimum (AUD)', aud(r.minimumCents)],
    ['Grants', r.grantCount],
    ['Held', r.heldCount],
    ['Total (AUD)', aud(r.totalCents)],
    ['Drafted', `${r.draftedAt} by ${r.draftedBy}`],
    ['Reviewed', r.reviewedBy ? `${r.reviewedAt} by ${r.reviewedBy}` : null],
    ['Approved', r.approvedBy ? `${r.approvedAt} by ${r.approvedBy}` : null],
    ['ABA file SHA-256', r.abaSha256],
    ['Paid', r.paidBy ? `${r.paidAt} by ${r.paidBy}` : null],
    ['Confirmed by the bank', r.bankConfirmedAt],
    ['Cancelled', r.cancelledBy ? `${r.cancelledAt} by ${r.cancelledBy}: ${r.cancelReason}` : null],
  ]);
}

const lineColumns: Column<GrantLineView>[] = [
  { header: 'Club', value: (l) => `${l.club} (${l.memberNumber})` },
  { header: 'Status', value: (l) => l.holdReason ?? l.status },
  { header: 'Donations', value: (l) => `${aud(l.donationsCents)} (${l.donationCount})` },
  { header: 'Recovered', value: (l) => aud(l.recoveredCents) },
  { header: 'Reissued', value: (l) => aud(l.reissuedCents) },
  { header: 'Fee', value: (l) => aud(l.feeCents) },
  { header: 'Grant', value: (l) => aud(l.amountCents) },
  { header: 'Account', value: (l) => (l.bsb ? `${l.bsb} ${l.account}` : null) },
  { header: 'Lodgement ref', value: (l) => l.lodgementReference },
];

export function reviewText(review: RoundReview): string {
  const paid = review.lines.filter((l) => l.status !== 'held');
  const changes = review.changes.map((c) => ({ ...c, was: c.before, is: c.now }));
  return [
    roundText(review.round),
    'Paid per club:',
    tableOr(paid, lineColumns, 'No club is paid in this round.'),
    'Held and carried forward:',
    tableOr(review.held, lineColumns, 'No club is held.'),
    review.comparedWith === null ? 'No earlier approved round to compare with.' : `Since round ${review.comparedWith}:`,
    tableOr(
      changes,
      [
        { header: 'Club', value: (c) => `${c.club} (${c.memberNumber})` },
        { header: 'Change', value: (c) => c.change },
        {
          header: 'Was',
          value: (c) => (c.was ? `${c.was.holdReason ?? c.was.status} ${aud(c.was.amountCents)}` : null),
        },
        { header: 'Is', value: (c) => (c.is ? `${c.is.holdReason ?? c.is.status} ${aud(c.is.amountCents)}` : null) },
      ],
      'No change.',
    ),
  ].join('\n');
}

/** Refused before anything is read (and audited): a file is never written over. */
export function refuseExisting(cwd: string, file: string | undefined): void {
  if (file !== undefined && existsSync(resolve(cwd, file)))
    throw new OperatorError(`Cannot write ${resolve(cwd, file)}: the file exists.`);
}

/** Writes a new file (never over an existing one) and answers its absolute path. */
export async function writeNewFile(cwd: string, file: string, content: Buffer | string): Promise<string> {
  const path = resolve(cwd, file);
  if (existsSync(path)) throw new OperatorError(`Cannot write ${path}: the file exists.`);
  await writeFile(path, content, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    throw new OperatorError(`Cannot write ${path}: ${err.code === 'EEXIST' ? 'the file exists' : err.message}.`);
  });
  return path;
}
