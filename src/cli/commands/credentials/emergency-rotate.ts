import type { Command } from 'commander';
import { emergencyRotateCredential } from '../../../services/operators/credential-admin.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { rotationJson, issuedText, cacheBound } from './shared.js';

/** credentials emergency-rotate */
export function registerCredentialsEmergencyRotate(credentials: Command, ctx: CliContext) {
  withOperator(
    withJson(
      credentials
        .command('emergency-rotate')
        .description(
          'Emergency rotation (leaked secret): issue a new pair and stop the old one at once, with no overlap',
        )
        .argument('<client_id>', 'the compromised pair')
        .option('--reason <text>', 'why, for the audit log'),
    ),
  ).action((clientId: string, options: { reason?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const result = await emergencyRotateCredential(ops, clientId, options.reason);
      out.emit(rotationJson(result), () =>
        [
          issuedText('Replacement credentials', result.issued),
          `The old pair ${clientId} is revoked: ${cacheBound}`,
        ].join('\n'),
      );
    }),
  );
}
