import { Option, type Command } from 'commander';
import type { Environment } from '../../../config/index.js';
import { listCredentials } from '../../../services/operators/credential-admin.js';
import type { CredentialState } from '../../../services/operators/credential-state.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { environmentOption, credentialColumns, credentialJson } from './shared.js';

/** credentials list */
export function registerCredentialsList(credentials: Command, ctx: CliContext) {
  withJson(
    credentials
      .command('list')
      .description('List credentials (never secrets): state, created, expires, revoked, last used')
      .option('--partner <partner>', 'only this partner (name or id)')
      .addOption(environmentOption('only this environment'))
      .addOption(
        new Option('--state <state>', 'only credentials in this state').choices([
          'active',
          'retiring',
          'expired',
          'revoked',
        ]),
      ),
  ).action((options: { partner?: string; env?: Environment; state?: CredentialState }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listCredentials(ops, {
        partner: options.partner,
        environment: options.env,
        state: options.state,
      });
      out.emit(rows.map(credentialJson), () =>
        tableOr(
          rows,
          [{ header: 'Partner', value: (c) => c.partnerName }, ...credentialColumns],
          'No credentials match.',
        ),
      );
    }),
  );
}
