import type { Command } from 'commander';
import type { Environment } from '../../../config/index.js';
import { credentialsDueForRotation } from '../../../services/operators/credential-admin.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { environmentOption, dueColumns, credentialJson } from './shared.js';

/** credentials due */
export function registerCredentialsDue(credentials: Command, ctx: CliContext) {
  withJson(
    credentials
      .command('due')
      .description('Report pairs due for the scheduled (annual) rotation within a number of days, or overdue')
      .option('--within <days>', 'due within this many days', wholeNumber(0, 3650), 30)
      .option(
        '--period-days <days>',
        'rotation period (default: CREDENTIAL_ROTATION_PERIOD_DAYS, which the rotation-due notices use)',
        wholeNumber(1, 3650),
      )
      .addOption(environmentOption('only this environment')),
  ).action((options: { within: number; periodDays?: number; env?: Environment }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const periodDays = options.periodDays ?? config.CREDENTIAL_ROTATION_PERIOD_DAYS;
      const due = await credentialsDueForRotation(ops, {
        withinDays: options.within,
        periodDays,
        environment: options.env,
      });
      out.emit(
        due.map((c) => ({ ...credentialJson(c), dueAt: c.dueAt, daysLeft: c.daysLeft })),
        () =>
          tableOr(
            due,
            dueColumns,
            `No credentials due for rotation within ${options.within} days (period ${periodDays} days).`,
          ),
      );
    }),
  );
}
