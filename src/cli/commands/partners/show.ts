import type { Command } from 'commander';
import { listCredentials } from '../../../services/operators/credential-admin.js';
import { showPartner } from '../../../services/operators/partners.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { credentialColumns, credentialJson } from '../credentials/shared.js';
import { partnerFields, partnerJson } from './shared.js';

/** partners show */
export function registerPartnersShow(partners: Command, ctx: CliContext) {
  withJson(
    partners
      .command('show')
      .description('Show a partner and its credentials (never secrets)')
      .argument('<partner>', 'partner name or id'),
  ).action((ref: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const partner = await showPartner(ops, ref);
      const credentials = await listCredentials(ops, { partner: partner.id });
      out.emit({ ...partnerJson(partner), credentials: credentials.map(credentialJson) }, () =>
        [
          partnerFields(partner),
          'Credentials:',
          tableOr(credentials, credentialColumns, '(none: issue one with "credentials issue")'),
        ].join('\n'),
      );
    }),
  );
}
