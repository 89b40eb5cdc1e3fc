import type { Command } from 'commander';
import type { Environment } from '../../../config/index.js';
import { issuePartnerCredential } from '../../../services/operators/credential-admin.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { environmentOption, issuedJson, issuedText, warnOtherEnvironment } from './shared.js';

/** credentials issue */
export function registerCredentialsIssue(credentials: Command, ctx: CliContext) {
  withOperator(
    withJson(
      credentials
        .command('issue')
        .description('Issue a new pair for a partner; the secret is printed once and only its hash is kept')
        .argument('<partner>', 'partner name or id')
        .addOption(environmentOption('environment the pair works in (default: APP_ENV of this deployment)')),
    ),
  ).action((ref: string, options: { env?: Environment }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const environment = options.env ?? config.APP_ENV;
      warnOtherEnvironment(out, config, environment);
      const issued = await issuePartnerCredential(ops, ref, environment);
      if (issued.partnerStatus !== 'active')
        out.warn(
          `partner ${JSON.stringify(issued.partnerName)} is ${issued.partnerStatus}: the pair works only once it is reactivated.`,
        );
      out.emit(issuedJson(issued), () => issuedText('New credentials', issued));
    }),
  );
}
