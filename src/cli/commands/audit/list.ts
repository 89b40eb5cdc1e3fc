import type { Command } from 'commander';
import { listAudit } from '../../../services/operators/audit.js';
import { parseInstant } from '../../../services/operators/time-range.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { moreAfter, tableOr } from '../../output.js';

interface AuditListOptions {
  operator?: string;
  action?: string;
  subject?: string;
  since?: string;
  until?: string;
  after?: string;
  limit: number;
}

/** audit list */
export function registerAuditList(audit: Command, ctx: CliContext) {
  withJson(
    audit
      .command('list')
      .description('List changes, newest first')
      .option('--operator <name>', 'only changes by this operator')
      .option('--action <action>', 'only this action or family, e.g. credential.rotate or credential')
      .option(
        '--subject <id>',
        'only changes to this subject: partner name or id, client_id, member number, channel, import file name',
      )
      .option('--since <date>', 'from this date (YYYY-MM-DD, UTC) or ISO timestamp')
      .option('--until <date>', 'up to and including this date, or before this ISO timestamp')
      .option('--limit <n>', 'at most this many entries', wholeNumber(1, 10_000), 50)
      .option('--after <id>', 'only entries older than this one: the last id of the page before'),
  ).action((options: AuditListOptions, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const entries = await listAudit(ops, {
        actor: options.operator,
        action: options.action,
        subject: options.subject,
        since: options.since ? parseInstant(options.since, '--since', 'start') : undefined,
        until: options.until ? parseInstant(options.until, '--until', 'end') : undefined,
        limit: options.limit,
        ...(options.after === undefined ? {} : { after: options.after }),
      });
      // A full page may have a next one: said to people; a script passes the last entry's id as --after.
      const last = entries.length === options.limit ? entries.at(-1)!.id : null;
      out.emit(entries, () =>
        moreAfter(
          tableOr(
            entries,
            [
              { header: 'When', value: (e) => e.at },
              { header: 'Operator', value: (e) => e.actor },
              { header: 'Action', value: (e) => e.action },
              { header: 'Subject', value: (e) => e.subject },
              { header: 'Details', value: (e) => e.details },
            ],
            'No audit entries match.',
          ),
          last,
        ),
      );
    }),
  );
}
