import type { Command } from 'commander';
import { listGrantRounds } from '../../../services/grants/rounds/list.js';
import type { CliContext } from '../../context.js';
import { withJson, wholeNumber } from '../../options.js';
import { tableOr } from '../../output.js';
import { roundColumns } from './shared.js';

/** grants rounds */
export function registerGrantsRounds(grants: Command, ctx: CliContext) {
  withJson(
    grants
      .command('rounds')
      .description('List grant rounds, newest first')
      .option('--limit <n>', 'how many', wholeNumber(1, 1000), 20),
  ).action((options: { limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rounds = await listGrantRounds(ops, options.limit);
      out.emit(rounds, () => tableOr(rounds, roundColumns, 'No grant round yet.'));
    }),
  );
}
