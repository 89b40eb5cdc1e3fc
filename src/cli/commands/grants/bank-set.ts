import type { Command } from 'commander';
import { setBankDetails } from '../../../services/grants/bank-details/enter.js';
import { bankDetailsSettings } from '../../../services/grants/bank-details/settings.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { detailsJson, enteredText } from './bank-output.js';

/** grants bank-set --account … --bsb … --number … --name … */
export function registerGrantsBankSet(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('bank-set')
        .description('Enter new bank details for a club: pending until another operator verifies them (audited)')
        .requiredOption('--account <id>', 'the club: member number or CRM id')
        .requiredOption('--bsb <bsb>', 'the BSB, NNN-NNN or NNNNNN')
        .requiredOption('--number <number>', 'the account number, 5 to 9 digits')
        .requiredOption('--name <name>', 'the account name, 1 to 32 characters'),
    ),
  ).action((options: { account: string; bsb: string; number: string; name: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const entered = await setBankDetails(
        ops,
        bankDetailsSettings(config),
        options.account,
        { bsb: options.bsb, accountNumber: options.number, accountName: options.name },
        'cli',
      );
      out.emit({ ...entered, details: detailsJson(entered.details) }, () => enteredText(entered, entered.details));
    }),
  );
}
