import type { Command } from 'commander';
import { revokeCredential } from '../../../services/operators/credential-admin.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { credentialJson, cacheBound } from './shared.js';

/** credentials revoke */
export function registerCredentialsRevoke(credentials: Command, ctx: CliContext) {
  withOperator(
    withJson(
      credentials
        .command('revoke')
        .description('Stop a pair at once (also one inside a rotation overlap), without issuing a new one')
        .argument('<client_id>', 'the pair to stop')
        .option('--reason <text>', 'why, for the audit log'),
    ),
  ).action((clientId: string, options: { reason?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const { revoked, usableLeft } = await revokeCredential(ops, clientId, options.reason);
      if (usableLeft === 0)
        out.warn(
          `partner ${JSON.stringify(revoked.partnerName)} has no usable credentials left in ${revoked.environment}.`,
        );
      out.emit({ ...credentialJson(revoked), usableLeft }, () => `Credential ${clientId} revoked: ${cacheBound}`);
    }),
  );
}
