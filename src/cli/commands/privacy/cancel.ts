import type { Command } from 'commander';
import { cancelErasure } from '../../../services/privacy/erasure.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { erasureText } from './shared.js';

/** privacy cancel */
export function registerPrivacyCancel(privacy: Command, ctx: CliContext) {
  withOperator(
    withJson(
      privacy
        .command('cancel')
        .description('Withdraw a pending erasure request; its address is forgotten (audited)')
        .requiredOption('--request <id>', 'the erasure request')
        .requiredOption('--reason <text>', 'why, audited'),
    ),
  ).action((options: { request: string; reason: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const erasure = await cancelErasure(ops, options.request, options.reason);
      out.emit(erasure, () => erasureText(erasure, `Erasure ${erasure.id} is cancelled.`));
    }),
  );
}
