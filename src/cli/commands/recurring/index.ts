import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerRecurringCancel } from './cancel.js';
import { registerRecurringList } from './list.js';
import { registerRecurringShow } from './show.js';

/** recurring list | show | cancel: every partner's recurring donations (docs/recurring.md). */
export function registerRecurring(program: Command, ctx: CliContext) {
  const recurring = program
    .command('recurring')
    .description('Recurring donations of every partner: list, one with its debits, cancel');

  registerRecurringList(recurring, ctx);
  registerRecurringShow(recurring, ctx);
  registerRecurringCancel(recurring, ctx);
}
