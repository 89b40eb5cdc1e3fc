import type { Command } from 'commander';
import { retentionPolicy } from '../../../config/privacy.js';
import { privacyStatus } from '../../../services/privacy/status.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { fields, tableOr } from '../../output.js';

/** privacy status */
export function registerPrivacyStatus(privacy: Command, ctx: CliContext) {
  withJson(
    privacy
      .command('status')
      .description('The de-identification’s progress and the erasure requests waiting for approval'),
  ).action((_options: object, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const status = await privacyStatus(ops, retentionPolicy(config));
      out.emit(status, () =>
        [
          fields([
            ['Donations past retention, still identified', status.donationsLeft],
            ...status.totals.map((t): [string, unknown] => [`De-identified: ${t.kind}`, t.rows]),
          ]),
          tableOr(
            status.pending,
            [
              { header: 'Pending erasure', value: (p) => p.id },
              { header: 'Asked by', value: (p) => p.requestedBy },
              { header: 'Asked at', value: (p) => p.requestedAt.toISOString() },
            ],
            'No erasure request waits for approval.',
          ),
        ].join('\n'),
      );
    }),
  );
}
