import { Option, type Command } from 'commander';
import { setClubGst } from '../../../services/grants/club-contacts.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** grants club-gst --account … --registered yes|no */
export function registerGrantsClubGst(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('club-gst')
        .description('Record whether a club is registered for GST: it then gets an RCTI with each grant (audited)')
        .requiredOption('--account <id>', 'the club: member number or CRM id')
        .addOption(
          new Option('--registered <yes|no>', 'registered for GST').choices(['yes', 'no']).makeOptionMandatory(),
        ),
    ),
  ).action((options: { account: string; registered: 'yes' | 'no' }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const result = await setClubGst(ops, options.account, options.registered === 'yes');
      out.emit(
        result,
        () =>
          `${result.club} (member ${result.memberNumber}) is ${result.gstRegistered ? '' : 'not '}registered for GST` +
          `${result.changed ? '.' : ' (unchanged).'}`,
      );
    }),
  );
}
