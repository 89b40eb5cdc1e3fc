import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerAccountsImport } from './import.js';
import { registerAccountsList } from './list.js';
import { registerAccountsShow } from './show.js';
import { registerAccountsSetProductStatus } from './set-product-status.js';

/** accounts import | list | show | set-product-status */
export function registerAccounts(program: Command, ctx: CliContext) {
  const accounts = program
    .command('accounts')
    .description('Fundraiser accounts and their products per channel (reference data)');

  registerAccountsImport(accounts, ctx);
  registerAccountsList(accounts, ctx);
  registerAccountsShow(accounts, ctx);
  registerAccountsSetProductStatus(accounts, ctx);
}
