import type { Command } from 'commander';
import { approveErasure } from '../../../services/privacy/erasure.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { erasureText } from './shared.js';

/** privacy approve */
export function registerPrivacyApprove(privacy: Command, ctx: CliContext) {
  withOperator(
    withJson(
      privacy
        .command('approve')
        .description(
          'Approve another operator’s erasure request: erases now what no law requires kept, tells the partners ' +
            '(donor.erased) and says what is kept until when (audited)',
        )
        .requiredOption('--request <id>', 'the erasure request'),
    ),
  ).action((options: { request: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const erasure = await approveErasure(ops, options.request, { timeZone: config.FOUNDATION_TIME_ZONE });
      out.emit(erasure, () => erasureText(erasure, `Erasure ${erasure.id} is done.`));
    }),
  );
}
