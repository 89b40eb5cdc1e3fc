import type { Command } from 'commander';
import { removeClubContact } from '../../../services/grants/club-contacts.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { contactJson } from './bank-output.js';

/** grants club-contact-remove --account … <contactId> */
export function registerGrantsClubContactRemove(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('club-contact-remove')
        .description('Remove a contact from a club (audited)')
        .requiredOption('--account <id>', 'the club: member number or CRM id')
        .argument('<contactId>', 'the contact’s id (see "grants club-contacts")'),
    ),
  ).action((contactId: string, options: { account: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const removed = await removeClubContact(ops, options.account, contactId);
      out.emit(
        contactJson(removed),
        () => `${removed.name} <${removed.email}> is no longer a ${removed.role} contact of the club.`,
      );
    }),
  );
}
