import type { Command } from 'commander';
import { bankStatements } from '../../../services/bank-statements/listings.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { statementColumns } from './shared.js';

/** bank statements */
export function registerBankStatements(bank: Command, ctx: CliContext) {
  withJson(
    bank
      .command('statements')
      .description('List the imported statements, newest first')
      .option('--limit <n>', 'list at most this many', wholeNumber(1, 10_000), 50),
  ).action((options: { limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const statements = await bankStatements(ops, options.limit);
      out.emit({ statements }, () => tableOr(statements, statementColumns, 'No statement was imported yet.'));
    }),
  );
}
