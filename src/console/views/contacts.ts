import { html } from 'ghtml';
import { CONTACT_ROLES } from '../../domain/partner-contact.js';
import type { PartnerContact } from '../../services/operators/partner-contacts.js';
import { canChange, csrfField, dataTable } from './components.js';

/** The contacts of a partner's page: who is told what, and, for admins, the forms that change them. */
export function contactsSection(
  partnerId: string,
  contacts: PartnerContact[],
  session: Parameters<typeof canChange>[0],
): string {
  const table = dataTable(
    contacts,
    [
      { header: 'Role', text: (c) => c.role },
      { header: 'Name', text: (c) => c.name },
      { header: 'E-mail', text: (c) => c.email },
      ...(canChange(session)
        ? [
            {
              header: '',
              cell: (c: PartnerContact) =>
                html`<form method="post" action="/console/partners/${partnerId}/contacts/${c.id}/remove">
                  !${csrfField(session)}<button type="submit" class="danger">Remove</button>
                </form>`,
            },
          ]
        : []),
    ],
    {
      caption: 'Contacts',
      empty: 'No contacts: nobody at this partner is told of rotations, exceptions or deprecations.',
    },
  );
  if (!canChange(session)) return table;
  return html`!${table}
    <form class="card" method="post" action="/console/partners/${partnerId}/contacts">
      <h2>Add a contact</h2>
      !${csrfField(session)}
      <p>
        <label for="contact-role">Role</label>
        <select id="contact-role" name="role">
          !${CONTACT_ROLES.map((role) => html`<option value="${role}">${role}</option>`)}
        </select>
      </p>
      <p><label for="contact-name">Name</label><input id="contact-name" name="name" required maxlength="200" /></p>
      <p>
        <label for="contact-email">E-mail</label
        ><input id="contact-email" name="email" type="email" required maxlength="254" />
      </p>
      <p><button type="submit">Add contact</button></p>
    </form>`;
}
