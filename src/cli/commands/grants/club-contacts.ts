import type { Command } from 'commander';
import { listClubContacts } from '../../../services/grants/club-contacts.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { contactColumns, contactJson } from './bank-output.js';

/** grants club-contacts --account … */
export function registerGrantsClubContacts(grants: Command, ctx: CliContext) {
  withJson(
    grants
      .command('club-contacts')
      .description('A club’s contacts: finance (advices, acquittals) and primary; all are told of bank changes')
      .requiredOption('--account <id>', 'the club: member number or CRM id'),
  ).action((options: { account: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const contacts = await listClubContacts(ops, options.account);
      out.emit(contacts.map(contactJson), () =>
        tableOr(contacts, contactColumns, 'No contacts yet: add them with "grants club-contact-add".'),
      );
    }),
  );
}
