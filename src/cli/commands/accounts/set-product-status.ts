import type { Command } from 'commander';
import { setProductStatus } from '../../../services/operators/accounts.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { accountText, accountJson } from './shared.js';

/** accounts set-product-status */
export function registerAccountsSetProductStatus(accounts: Command, ctx: CliContext) {
  withOperator(
    withJson(
      accounts
        .command('set-product-status')
        .description(
          'Change the status of an account\'s product for one channel; only "Activated" is an active enrolment',
        )
        .argument('<id>', 'member number or CRM id')
        .requiredOption('--channel <name>', "the product's channel")
        .requiredOption('--status <status>', 'new status, e.g. Activated, Suspended, Pending Activation')
        .option(
          '--enrollment-status <text>',
          'new enrolment status text shown to partners, e.g. "Enrollment Validated"',
        ),
    ),
  ).action((id: string, options: { channel: string; status: string; enrollmentStatus?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const detail = await setProductStatus(ops, id, options.channel, {
        status: options.status,
        enrollmentStatus: options.enrollmentStatus,
      });
      out.emit(accountJson(detail), () => `Product status changed.\n${accountText(detail)}`);
    }),
  );
}
