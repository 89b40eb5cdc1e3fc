import type { Command } from 'commander';
import { showAccount } from '../../../services/operators/accounts.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { accountText, accountJson } from './shared.js';

/** accounts show */
export function registerAccountsShow(accounts: Command, ctx: CliContext) {
  withJson(
    accounts
      .command('show')
      .description('Show an account and all its products')
      .argument('<id>', 'member number or CRM id (15 or 18 characters)'),
  ).action((id: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const detail = await showAccount(ops, id);
      out.emit(accountJson(detail), () => accountText(detail));
    }),
  );
}
