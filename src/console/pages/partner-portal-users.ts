import { requirePartner } from '../../services/operators/partners.js';
import { inviteUser, portalUserSettings } from '../../services/portal/users.js';
import { field, operatorContext, type ConsolePage } from '../route-context.js';
import { changeRoute } from '../views/change-route.js';
import { detailPage } from './partners.js';

/** An operator invites someone of a partner to the partner portal (admins); the partner's page lists its users. */
export const partnerPortalUsersPages: ConsolePage = (app, deps) => {
  const settings = portalUserSettings(deps.config);
  changeRoute<{ id: string }, unknown>(app, deps, '/partners/:id/portal-users', {
    run: async (request) => {
      const ctx = operatorContext(request, deps);
      const partner = await requirePartner(ctx, request.params.id);
      return inviteUser(ctx, settings, partner, {
        email: field(request.body, 'email'),
        role: field(request.body, 'role'),
      });
    },
    show: detailPage,
    done: (_invited, request, reply) =>
      reply.redirect(`/console/partners/${request.params.id}?done=portal-user-invited`, 303),
  });
};
