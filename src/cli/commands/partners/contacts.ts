import { Option, type Command } from 'commander';
import { CONTACT_ROLES } from '../../../domain/partner-contact.js';
import {
  addContact,
  listContacts,
  removeContact,
  type PartnerContact,
} from '../../../services/operators/partner-contacts.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { tableOr, type Column } from '../../output.js';

const columns: Column<PartnerContact>[] = [
  { header: 'Role', value: (c) => c.role },
  { header: 'Name', value: (c) => c.name },
  { header: 'E-mail', value: (c) => c.email },
  { header: 'Id', value: (c) => c.id },
];

const contactJson = (c: PartnerContact) => ({ id: c.id, role: c.role, name: c.name, email: c.email });

/** partners contacts | contact-add | contact-remove: who at the partner is told what (docs/partners.md). */
export function registerPartnersContacts(partners: Command, ctx: CliContext) {
  withJson(
    partners
      .command('contacts')
      .description('List a partner’s contacts (technical, finance, security)')
      .argument('<partner>', 'partner name or id'),
  ).action((ref: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const contacts = await listContacts(ops, ref);
      out.emit(contacts.map(contactJson), () =>
        tableOr(contacts, columns, 'No contacts yet: add them with "partners contact-add".'),
      );
    }),
  );
  withOperator(
    withJson(
      partners
        .command('contact-add')
        .description('Add a contact to a partner (audited)')
        .argument('<partner>', 'partner name or id')
        .addOption(
          new Option('--role <role>', 'what they are told of').choices([...CONTACT_ROLES]).makeOptionMandatory(),
        )
        .requiredOption('--name <name>', 'their name')
        .requiredOption('--email <email>', 'their e-mail address'),
    ),
  ).action((ref: string, options: { role: string; name: string; email: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const contact = await addContact(ops, ref, options);
      out.emit(
        contactJson(contact),
        () => `${contact.name} <${contact.email}> is a ${contact.role} contact (id ${contact.id}).`,
      );
    }),
  );
  withOperator(
    withJson(
      partners
        .command('contact-remove')
        .description('Remove a contact from a partner (audited)')
        .argument('<partner>', 'partner name or id')
        .argument('<contactId>', 'the contact’s id (see "partners contacts")'),
    ),
  ).action((ref: string, contactId: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const removed = await removeContact(ops, ref, contactId);
      out.emit(
        contactJson(removed),
        () => `${removed.name} <${removed.email}> is no longer a ${removed.role} contact.`,
      );
    }),
  );
}
