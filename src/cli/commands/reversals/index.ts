import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerReversalsExport } from './export.js';
import { registerReversalsOwed } from './owed.js';
import { registerReversalsRepaid } from './repaid.js';

/** reversals owed | export | repaid: money owed back to partners, for finance (docs/reversals.md). */
export function registerReversals(program: Command, ctx: CliContext) {
  const reversals = program
    .command('reversals')
    .description('Money owed back after reversals of settled donations: list, export, mark repaid');

  registerReversalsOwed(reversals, ctx);
  registerReversalsExport(reversals, ctx);
  registerReversalsRepaid(reversals, ctx);
}
