import { html } from 'ghtml';
import { changeRoute } from '../../console/views/change-route.js';
import { csrfField, selectField } from '../../console/views/components.js';
import { field } from '../../console/route-context.js';
import { PORTAL_ROLES } from '../../domain/portal-roles.js';
import {
  changeRole,
  inviteUser,
  listUsers,
  portalUserSettings,
  removeUser,
  type PortalUserRow,
} from '../../services/portal/users.js';
import { portalContext, portalSessionOf, type PortalPage } from '../route-context.js';
import { portalListPage } from '../views/layout.js';

/**
 * Users (admins only, by the guard's area): the partner's people, their roles and whether they accepted; invite
 * someone (the link leaves by mail), change a role, remove a user. Only the session's partner's users are listed or
 * changed: another partner's user id answers as an unknown one.
 */
const list = portalListPage<PortalUserRow>({
  path: '/users',
  title: 'Users',
  section: 'users',
  filters: [],
  query: ({ ops }) => listUsers(ops, ops.partnerId),
  caption: 'Your team’s portal users',
  empty: 'No users yet.',
  columns: (view) => [
    { header: 'E-mail', text: (u) => u.email },
    { header: 'Role', text: (u) => u.role },
    { header: 'Status', text: (u) => (u.status === 'invited' ? 'invited (not yet accepted)' : u.status) },
    { header: 'Invited by', text: (u) => u.invited_by },
    {
      header: 'Change',
      cell: (u) =>
        u.id === view.session.userId
          ? html`<span>(you)</span>`
          : html`<form class="inline" method="post" action="/portal/users/${u.id}/role">
                !${csrfField(view.session)}
                !${selectField({ id: `role-${u.id}`, name: 'role', label: `Role of ${u.email}`, options: PORTAL_ROLES, chosen: u.role })}
                <button type="submit">Change role</button>
              </form>
              <form class="inline" method="post" action="/portal/users/${u.id}/remove">
                !${csrfField(view.session)}
                <button type="submit" data-confirm="Remove ${u.email}?">Remove</button>
              </form>`,
    },
  ],
  below: (view) =>
    html`<h2>Invite someone</h2>
      <form class="card narrow" method="post" action="/portal/users/invite">
        !${csrfField(view.session)}
        <p>
          <label for="invite-email">E-mail</label
          ><input id="invite-email" name="email" type="email" required maxlength="254" />
        </p>
        !${selectField({ id: 'invite-role', name: 'role', label: 'Role', options: PORTAL_ROLES, chosen: 'read-only' })}
        <p><button type="submit">Send the invitation</button></p>
      </form>`,
});

type UserParams = { id: string };

export const usersPages: PortalPage = (app, deps) => {
  const settings = portalUserSettings(deps.config);
  const area = { config: { portalArea: 'users' as const } };
  void app.register(async (scope) => {
    scope.addHook('onRoute', (route) => void (route.config = { ...route.config, ...area.config }));
    list.route(scope, deps);
    changeRoute<Record<string, never>, PortalUserRow, typeof deps>(scope, deps, '/users/invite', {
      run: (request) => {
        const ctx = portalContext(request, deps);
        return inviteUser(
          ctx,
          settings,
          { id: ctx.partnerId, name: ctx.partnerName },
          {
            email: field(request.body, 'email'),
            role: field(request.body, 'role'),
          },
        );
      },
      show: list.show,
      done: (user) => `Invitation sent to ${user.email} (${user.role}).`,
    });
    changeRoute<UserParams, PortalUserRow, typeof deps>(scope, deps, '/users/:id/role', {
      run: (request) => {
        const ctx = portalContext(request, deps);
        const me = portalSessionOf(request).userId;
        return changeRole(ctx, ctx.partnerId, request.params.id, field(request.body, 'role'), me);
      },
      show: list.show,
      done: (user) => `${user.email} is now ${user.role}; their sessions have ended.`,
    });
    changeRoute<UserParams, PortalUserRow, typeof deps>(scope, deps, '/users/:id/remove', {
      run: (request) => {
        const ctx = portalContext(request, deps);
        return removeUser(ctx, ctx.partnerId, request.params.id, portalSessionOf(request).userId);
      },
      show: list.show,
      done: (user) => `${user.email} was removed; their sessions have ended.`,
    });
  });
};
