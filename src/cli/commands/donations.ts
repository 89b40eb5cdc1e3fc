import type { Command } from 'commander';
import { donationDetail, findDonations, listPartnerDonations, type DonationDetail, type DonationRecord } from '../../services/operators/donations.js';
import { parseTimeRange } from '../../services/operators/time-range.js';
import type { CliContext } from '../context.js';
import { wholeNumber, withJson } from '../options.js';
import { fields, formatCents, formatTime, tableOr, type Column } from '../output.js';

/** donations show | find | list: support look-ups, read-only. */
export function registerDonations(program: Command, ctx: CliContext) {
  const donations = program.command('donations').description('Support look-ups: where is this donation?');

  withJson(donations.command('show').description('Show one donation by its reference id (donationReferenceId)').argument('<referenceId>', 'e.g. DON-…')).action(
    (referenceId: string, _options, command: Command) =>
      ctx.run(command, async ({ ops, out }) => {
        const detail = await donationDetail(ops, referenceId);
        out.emit(detailJson(detail), () => detailText(detail));
      }),
  );

  withJson(
    donations
      .command('find')
      .description("Find donations by the partner's transaction id or by the donor's email")
      .option('--transaction-id <id>', "the partner's transaction.id")
      .option('--email <email>', "the donor's email (any case)")
      .option('--partner <partner>', 'only this partner (name or id)')
      .option('--limit <n>', 'at most this many', wholeNumber(1, 10_000), 100),
  ).action((options: { transactionId?: string; email?: string; partner?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await findDonations(ops, { transactionId: options.transactionId, donorEmail: options.email, partner: options.partner, limit: options.limit });
      out.emit(rows.map(donationJson), () => tableOr(rows, donationColumns, 'No donations match.'));
    }),
  );

  withJson(
    donations
      .command('list')
      .description("List a partner's donations received in a date range")
      .requiredOption('--partner <partner>', 'partner name or id')
      .option('--from <date>', 'received on or after this date (YYYY-MM-DD, UTC) or ISO timestamp')
      .option('--to <date>', 'received on or before this date (whole day, UTC), or before this ISO timestamp')
      .option('--channel <name>', 'only this channel')
      .option('--limit <n>', 'list at most this many (the totals cover the whole range)', wholeNumber(1, 100_000), 1000),
  ).action((options: { partner: string; from?: string; to?: string; channel?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const result = await listPartnerDonations(ops, { partner: options.partner, range: parseTimeRange(options.from, options.to), channel: options.channel, limit: options.limit });
      const period = `${result.range.from ? formatTime(result.range.from) : 'the start'} to ${result.range.until ? `before ${formatTime(result.range.until)}` : 'now'}`;
      out.emit(
        { partner: result.partnerName, from: result.range.from ?? null, until: result.range.until ?? null, count: result.count, totalAud: formatCents(result.totalCents), donations: result.donations.map(donationJson) },
        () =>
          [
            tableOr(result.donations, donationColumns, 'No donations in this period.'),
            `${result.partnerName}, ${period}: ${result.count} donation(s), total AUD ${formatCents(result.totalCents)}` +
              (result.count > result.donations.length ? ` (first ${result.donations.length} listed; raise --limit to see more)` : ''),
          ].join('\n'),
      );
    }),
  );
}

const donationColumns: Column<DonationRecord>[] = [
  { header: 'Reference', value: (d) => d.referenceId },
  { header: 'Received', value: (d) => d.createdAt },
  { header: 'Partner', value: (d) => d.partnerName },
  { header: 'Channel', value: (d) => d.channel },
  { header: 'Fundraiser', value: (d) => `${d.memberNumber} ${d.accountName}` },
  { header: 'AUD', value: (d) => formatCents(d.amountCents) },
  { header: 'Donor email', value: (d) => d.donorEmail },
  { header: 'Transaction id', value: (d) => d.transactionId },
];

const donationJson = (d: DonationRecord) => ({ ...d, amountCents: d.amountCents, amountAud: d.amountCents === null ? null : formatCents(d.amountCents) });

/** One entry per section of the detail. */
const detailJson = (detail: DonationDetail) => ({
  ...donationJson(detail.donation),
  settlement: detail.settlement && { ...detail.settlement, amountAud: formatCents(detail.settlement.amountCents) },
});

function detailText({ donation: d, settlement: s }: DonationDetail): string {
  return fields([
    ['Reference id', d.referenceId],
    ['Received', d.createdAt],
    ['Partner', `${d.partnerName} (${d.partnerId})`],
    ['Environment', `${d.environment}${d.isLive ? ' (live)' : ' (not real: pre-production)'}`],
    ['Channel', d.channel],
    ['Fundraiser id sent', d.fundraiserId],
    ['Account', `${d.memberNumber} ${d.accountName}`],
    ['Product enrolment id', d.productEnrollmentId],
    ['Amount (AUD)', formatCents(d.amountCents)],
    ['Transaction id', d.transactionId],
    ['Transaction date', d.transactionDate],
    ['Donor', d.donorBusinessName ? `${d.donorName} for ${d.donorBusinessName}` : d.donorName],
    ['Donor email', d.donorVerifiedEmail && d.donorVerifiedEmail !== d.donorEmail ? `${d.donorEmail} (verified: ${d.donorVerifiedEmail})` : d.donorEmail],
    ['Donor mobile', d.donorMobile],
    ['Postcode', d.postalCode],
    ['Correlation id', d.correlationId],
    ['Source metadata', d.sourceMetadata],
    ['Settled', s ? `${formatCents(s.amountCents)} AUD by bank reference ${s.bankReferenceId} (batch ${s.batchId}, entry ${s.entryIndex}) at ${formatTime(s.settledAt)}` : 'not yet (no remittance has settled it)'],
  ]);
}
