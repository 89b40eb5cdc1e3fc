import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerCredentialsIssue } from './issue.js';
import { registerCredentialsList } from './list.js';
import { registerCredentialsRotate } from './rotate.js';
import { registerCredentialsEmergencyRotate } from './emergency-rotate.js';
import { registerCredentialsRevoke } from './revoke.js';
import { registerCredentialsDue } from './due.js';

/** credentials issue | list | rotate | emergency-rotate | revoke | due */
export function registerCredentials(program: Command, ctx: CliContext) {
  const credentials = program
    .command('credentials')
    .description('Partner client_id/client_secret pairs: issue, rotate, revoke (spec section 5)');

  registerCredentialsIssue(credentials, ctx);
  registerCredentialsList(credentials, ctx);
  registerCredentialsRotate(credentials, ctx);
  registerCredentialsEmergencyRotate(credentials, ctx);
  registerCredentialsRevoke(credentials, ctx);
  registerCredentialsDue(credentials, ctx);
}
