import type { Command } from 'commander';
import { verifyBankDetails } from '../../../services/grants/bank-details/decide.js';
import { bankDetailsSettings } from '../../../services/grants/bank-details/settings.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { detailsJson, payableText } from './bank-output.js';

/** grants bank-verify --account … --confirmation "…" [--waive-hold] */
export function registerGrantsBankVerify(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('bank-verify')
        .description('Verify a club’s pending bank change, never one you entered (audited)')
        .requiredOption('--account <id>', 'the club: member number or CRM id')
        .requiredOption('--confirmation <text>', 'whom you called at the club, on which number already on file')
        .option('--waive-hold', 'approved to be paid before the hold period (GRANT_BANK_CHANGE_HOLD_DAYS) ends'),
    ),
  ).action((options: { account: string; confirmation: string; waiveHold?: boolean }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const decided = await verifyBankDetails(ops, bankDetailsSettings(config), options.account, {
        confirmation: options.confirmation,
        waiveHold: Boolean(options.waiveHold),
      });
      out.emit(
        {
          ...decided,
          details: detailsJson(decided.details),
          superseded: decided.superseded && detailsJson(decided.superseded),
        },
        () =>
          `The bank details of ${decided.club} (member ${decided.memberNumber}) are verified: BSB ` +
          `${decided.details.bsb}, account ${decided.details.accountNumber}; ${payableText(decided.details)}.` +
          (decided.superseded ? ` They replace ${decided.superseded.bsb} ${decided.superseded.accountNumber}.` : ''),
      );
    }),
  );
}
