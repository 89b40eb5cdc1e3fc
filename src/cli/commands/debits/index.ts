import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerDebitsList } from './list.js';
import { registerDebitsRetry } from './retry.js';

/** debits list | retry: every partner's debits by view, and another try of a failed one (docs/recurring.md). */
export function registerDebits(program: Command, ctx: CliContext) {
  const debits = program
    .command('debits')
    .description('Debits of recurring and one-off donations: upcoming, failed, disputed, processing; retry');

  registerDebitsList(debits, ctx);
  registerDebitsRetry(debits, ctx);
}
