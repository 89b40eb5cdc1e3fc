import type { Command } from 'commander';
import { MAX_OVERLAP_DAYS, rotateCredential } from '../../../services/operators/credential-admin.js';
import { DEFAULT_OVERLAP_DAYS } from '../../../services/operators/credential-state.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson, withOperator } from '../../options.js';
import { formatTime } from '../../output.js';
import { rotationJson, issuedText } from './shared.js';

/** credentials rotate */
export function registerCredentialsRotate(credentials: Command, ctx: CliContext) {
  withOperator(
    withJson(
      credentials
        .command('rotate')
        .description(
          'Scheduled rotation: issue a new pair; the old one keeps working for the overlap window, then stops',
        )
        .argument('<client_id>', 'the pair to replace')
        .option(
          '--overlap-days <days>',
          `how long the old pair keeps working (1-${MAX_OVERLAP_DAYS})`,
          wholeNumber(1, MAX_OVERLAP_DAYS),
          DEFAULT_OVERLAP_DAYS,
        ),
    ),
  ).action((clientId: string, options: { overlapDays: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const result = await rotateCredential(ops, clientId, options.overlapDays);
      out.emit(rotationJson(result), () =>
        [
          issuedText('Replacement credentials', result.issued),
          `The old pair ${clientId} keeps working until ${formatTime(result.previous.expiresAt!)} (${options.overlapDays}-day overlap), then stops.`,
        ].join('\n'),
      );
    }),
  );
}
