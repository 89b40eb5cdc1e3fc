import type { Command } from 'commander';
import { replayErasures } from '../../../services/privacy/erasure.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** privacy replay-erasures */
export function registerPrivacyReplayErasures(privacy: Command, ctx: CliContext) {
  withOperator(
    withJson(
      privacy
        .command('replay-erasures')
        .description(
          'After restoring a backup: erase again everything every performed erasure erased (idempotent, audited)',
        ),
    ),
  ).action((_options: object, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const result = await replayErasures(ops);
      out.emit(
        result,
        () =>
          `${result.requests} erasure(s) replayed: ${result.rows} row(s) held erased details again and were erased.`,
      );
    }),
  );
}
