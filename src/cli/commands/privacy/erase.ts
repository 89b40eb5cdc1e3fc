import type { Command } from 'commander';
import { requestErasure } from '../../../services/privacy/erasure.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { erasureText } from './shared.js';

/** privacy erase */
export function registerPrivacyErase(privacy: Command, ctx: CliContext) {
  withOperator(
    withJson(
      privacy
        .command('erase')
        .description('Ask to erase what is held about a person: a pending request another operator approves (audited)')
        .requiredOption('--email <address>', 'the address the person gave')
        .requiredOption('--reason <text>', 'the ground of the request (no personal details), kept and audited'),
    ),
  ).action((options: { email: string; reason: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const erasure = await requestErasure(ops, { ...options, timeZone: config.FOUNDATION_TIME_ZONE });
      out.emit(erasure, () =>
        erasureText(
          erasure,
          `Erasure ${erasure.id} waits for another operator: fundraiser-admin privacy approve --request ${erasure.id}`,
        ),
      );
    }),
  );
}
