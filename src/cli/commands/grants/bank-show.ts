import type { Command } from 'commander';
import { bankDetailsSettings } from '../../../services/grants/bank-details/settings.js';
import { showBankDetails } from '../../../services/grants/bank-details/show.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { contactJson, detailsJson, viewText } from './bank-output.js';

/** grants bank-show --account … [--unmask] */
export function registerGrantsBankShow(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('bank-show')
        .description('A club’s bank details (current, pending, every version), contacts and GST flag')
        .requiredOption('--account <id>', 'the club: member number or CRM id')
        .option('--unmask', 'show whole account numbers (audited as club.bank_details_view)'),
    ),
  ).action((options: { account: string; unmask?: boolean }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const view = await showBankDetails(ops, bankDetailsSettings(config), options.account, {
        unmask: Boolean(options.unmask),
        via: 'cli',
      });
      out.emit(
        {
          ...view,
          current: view.current && detailsJson(view.current),
          pending: view.pending && detailsJson(view.pending),
          history: view.history.map(detailsJson),
          contacts: view.contacts.map(contactJson),
        },
        () => viewText(view),
      );
    }),
  );
}
