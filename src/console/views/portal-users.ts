import { html } from 'ghtml';
import { PORTAL_ROLES } from '../../domain/portal-roles.js';
import type { PortalUserRow } from '../../services/portal/users.js';
import { canChange, csrfField, dataTable, selectField } from './components.js';

/** A partner's portal users on its console page (docs/portal.md), and, for admins, the invitation form. */
export function portalUsersSection(
  partnerId: string,
  users: PortalUserRow[],
  session: Parameters<typeof canChange>[0],
): string {
  const table = dataTable(
    users,
    [
      { header: 'E-mail', text: (u) => u.email },
      { header: 'Role', text: (u) => u.role },
      { header: 'Status', text: (u) => u.status },
      { header: 'Invited by', text: (u) => u.invited_by },
    ],
    { caption: 'Partner portal users', empty: 'Nobody at this partner signs in to the partner portal yet.' },
  );
  if (!canChange(session)) return table;
  return html`!${table}
    <form class="card" method="post" action="/console/partners/${partnerId}/portal-users">
      <h2>Invite to the partner portal</h2>
      !${csrfField(session)}
      <p>
        <label for="portal-email">E-mail</label
        ><input id="portal-email" name="email" type="email" required maxlength="254" />
      </p>
      !${selectField({ id: 'portal-role', name: 'role', label: 'Portal role', options: PORTAL_ROLES, chosen: 'admin' })}
      <p><button type="submit">Send the invitation</button></p>
    </form>`;
}
