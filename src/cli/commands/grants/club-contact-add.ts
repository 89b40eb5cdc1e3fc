import { Option, type Command } from 'commander';
import { addClubContact, CLUB_CONTACT_ROLES } from '../../../services/grants/club-contacts.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { contactJson } from './bank-output.js';

/** grants club-contact-add --account … --role finance|primary --name … --email … */
export function registerGrantsClubContactAdd(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('club-contact-add')
        .description('Add a contact to a club (audited)')
        .requiredOption('--account <id>', 'the club: member number or CRM id')
        .addOption(
          new Option('--role <role>', 'finance: advices and acquittals; primary: the club’s main contact')
            .choices([...CLUB_CONTACT_ROLES])
            .makeOptionMandatory(),
        )
        .requiredOption('--name <name>', 'their name')
        .requiredOption('--email <email>', 'their e-mail address'),
    ),
  ).action((options: { account: string; role: string; name: string; email: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const contact = await addClubContact(ops, options.account, options);
      out.emit(
        contactJson(contact),
        () => `${contact.name} <${contact.email}> is a ${contact.role} contact of the club (id ${contact.id}).`,
      );
    }),
  );
}
