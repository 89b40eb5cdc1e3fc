import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerRemittancesList } from './list.js';
import { registerRemittancesShow } from './show.js';
import { registerRemittancesExceptions } from './exceptions.js';
import { registerRemittancesRetry } from './retry.js';
import { registerRemittancesQueue } from './queue.js';
import { registerRemittancesExport } from './export.js';

/** remittances list | show | exceptions | export | retry | queue: reconciliation, for operators. */
export function registerRemittances(program: Command, ctx: CliContext) {
  const remittances = program
    .command('remittances')
    .description('Remittance batches and their reconciliation: status, exceptions, exports, retries');

  registerRemittancesList(remittances, ctx);
  registerRemittancesShow(remittances, ctx);
  registerRemittancesExceptions(remittances, ctx);
  registerRemittancesExport(remittances, ctx);
  registerRemittancesRetry(remittances, ctx);
  registerRemittancesQueue(remittances, ctx);
}
