import { Option, type Command } from 'commander';
import { PORTAL_ROLES } from '../../../domain/portal-roles.js';
import { requirePartner } from '../../../services/operators/partners.js';
import {
  changeRole,
  inviteUser,
  listUsers,
  portalUserSettings,
  removeUser,
  type PortalUserRow,
} from '../../../services/portal/users.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { tableOr, type Column } from '../../output.js';

const columns: Column<PortalUserRow>[] = [
  { header: 'E-mail', value: (u) => u.email },
  { header: 'Role', value: (u) => u.role },
  { header: 'Status', value: (u) => u.status },
  { header: 'Invited by', value: (u) => u.invited_by },
  { header: 'Id', value: (u) => u.id },
];

const userJson = (u: PortalUserRow) => ({ id: u.id, email: u.email, role: u.role, status: u.status });

const roleOption = () =>
  new Option('--role <role>', 'what they may do (docs/portal.md, "Roles")')
    .choices([...PORTAL_ROLES])
    .makeOptionMandatory();

/** partners users list | invite | role | remove: the people of a partner who sign in to the portal (docs/portal.md). */
export function registerPartnersUsers(partners: Command, ctx: CliContext) {
  const users = partners.command('users').description('The partner portal’s users of a partner');
  withJson(
    users.command('list').description('List a partner’s portal users').argument('<partner>', 'partner name or id'),
  ).action((ref: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const partner = await requirePartner(ops, ref);
      const found = await listUsers(ops, partner.id);
      out.emit(found.map(userJson), () =>
        tableOr(found, columns, 'No portal users: invite one with "partners users invite".'),
      );
    }),
  );
  withOperator(
    withJson(
      users
        .command('invite')
        .description('Invite someone to the partner portal: a one-time link by e-mail (audited)')
        .argument('<partner>', 'partner name or id')
        .requiredOption('--email <email>', 'their e-mail address')
        .addOption(roleOption()),
    ),
  ).action((ref: string, options: { email: string; role: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const partner = await requirePartner(ops, ref);
      const user = await inviteUser(ops, portalUserSettings(config), partner, options);
      out.emit(
        userJson(user),
        () => `Invited ${user.email} (${user.role}) to ${partner.name}’s portal; the link is in the mail.`,
      );
    }),
  );
  registerChanges(users, ctx);
}

/** role | remove: changes that end the user's sessions. */
function registerChanges(users: Command, ctx: CliContext) {
  withOperator(
    withJson(
      users
        .command('role')
        .description('Change a portal user’s role; their sessions end (audited)')
        .argument('<partner>', 'partner name or id')
        .argument('<userId>', 'the user’s id (see "partners users list")')
        .addOption(roleOption()),
    ),
  ).action((ref: string, userId: string, options: { role: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const partner = await requirePartner(ops, ref);
      const user = await changeRole(ops, partner.id, userId, options.role);
      out.emit(userJson(user), () => `${user.email} is now ${user.role}.`);
    }),
  );
  withOperator(
    withJson(
      users
        .command('remove')
        .description('Remove a portal user; their sessions end (audited)')
        .argument('<partner>', 'partner name or id')
        .argument('<userId>', 'the user’s id (see "partners users list")'),
    ),
  ).action((ref: string, userId: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const partner = await requirePartner(ops, ref);
      const user = await removeUser(ops, partner.id, userId);
      out.emit(userJson(user), () => `${user.email} was removed from ${partner.name}’s portal.`);
    }),
  );
}
