import type { Command } from 'commander';
import { rejectBankDetails } from '../../../services/grants/bank-details/decide.js';
import { bankDetailsSettings } from '../../../services/grants/bank-details/settings.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { detailsJson } from './bank-output.js';

/** grants bank-reject --account … --reason "…" */
export function registerGrantsBankReject(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('bank-reject')
        .description('Reject a club’s pending bank change, never one you entered (audited)')
        .requiredOption('--account <id>', 'the club: member number or CRM id')
        .requiredOption('--reason <text>', 'why it is rejected'),
    ),
  ).action((options: { account: string; reason: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const decided = await rejectBankDetails(ops, bankDetailsSettings(config), options.account, options.reason);
      out.emit(
        { ...decided, details: detailsJson(decided.details) },
        () =>
          `The pending bank change of ${decided.club} (member ${decided.memberNumber}) is rejected; the club's ` +
          'current details are unchanged.',
      );
    }),
  );
}
