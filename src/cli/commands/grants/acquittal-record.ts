import type { Command } from 'commander';
import { recordAcquittal, type Declaration } from '../../../services/operators/grant-acquittals.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { formatAud } from '../../output.js';

/** grants acquittal-record */
export function registerGrantsAcquittalRecord(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('acquittal-record')
        .description("Record a club's expenditure declaration for a grant (audited)")
        .requiredOption('--grant <reference>', "the grant's lodgement reference")
        .requiredOption('--declared-by <name>', 'who declared it, for the club')
        .requiredOption('--declared-on <date>', 'the date of the declaration (YYYY-MM-DD)')
        .requiredOption('--spent <amount>', 'the amount of the grant spent, in dollars (e.g. 1250.00)')
        .requiredOption('--purpose <text>', 'what it was spent on'),
    ),
  ).action((options: Declaration, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const recorded = await recordAcquittal(ops, options, config.FOUNDATION_TIME_ZONE);
      out.emit(
        recorded,
        () =>
          `Recorded the acquittal of grant ${recorded.lodgementReference}: $${formatAud(recorded.spentCents)} of ` +
          `$${formatAud(recorded.grantCents)} spent.`,
      );
    }),
  );
}
