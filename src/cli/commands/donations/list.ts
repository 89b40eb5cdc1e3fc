import type { Command } from 'commander';
import { listPartnerDonations } from '../../../services/operators/donations.js';
import { parseTimeRange } from '../../../services/operators/time-range.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { formatAud, formatTime, tableOr } from '../../output.js';
import { donationColumns, donationJson } from './shared.js';

/** donations list */
export function registerDonationsList(donations: Command, ctx: CliContext) {
  withJson(
    donations
      .command('list')
      .description("List a partner's donations received in a date range")
      .requiredOption('--partner <partner>', 'partner name or id')
      .option('--from <date>', 'received on or after this date (YYYY-MM-DD, UTC) or ISO timestamp')
      .option('--to <date>', 'received on or before this date (whole day, UTC), or before this ISO timestamp')
      .option('--channel <name>', 'only this channel')
      .option(
        '--limit <n>',
        'list at most this many (the totals cover the whole range)',
        wholeNumber(1, 100_000),
        1000,
      ),
  ).action(
    (options: { partner: string; from?: string; to?: string; channel?: string; limit: number }, command: Command) =>
      ctx.run(command, async ({ ops, out }) => {
        const result = await listPartnerDonations(ops, {
          partner: options.partner,
          range: parseTimeRange(options.from, options.to),
          channel: options.channel,
          limit: options.limit,
        });
        const period = `${result.range.from ? formatTime(result.range.from) : 'the start'} to ${result.range.until ? `before ${formatTime(result.range.until)}` : 'now'}`;
        out.emit(
          {
            partner: result.partnerName,
            from: result.range.from ?? null,
            until: result.range.until ?? null,
            count: result.count,
            totalAud: formatAud(result.totalCents),
            donations: result.donations.map(donationJson),
          },
          () =>
            [
              tableOr(result.donations, donationColumns, 'No donations in this period.'),
              `${result.partnerName}, ${period}: ${result.count} donation(s), total AUD ${formatAud(result.totalCents)}` +
                (result.count > result.donations.length
                  ? ` (first ${result.donations.length} listed; raise --limit to see more)`
                  : ''),
            ].join('\n'),
        );
      }),
  );
}
