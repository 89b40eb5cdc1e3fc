import { addContact, removeContact } from '../../services/operators/partner-contacts.js';
import { field, operatorContext, type ConsolePage } from '../route-context.js';
import { changeRoute } from '../views/change-route.js';
import { detailPage } from './partners.js';

/** Adding and removing a partner's contacts (admins); the partner's page lists them (views/contacts.ts). */
export const partnerContactsPages: ConsolePage = (app, deps) => {
  changeRoute<{ id: string }, unknown>(app, deps, '/partners/:id/contacts', {
    run: (request) =>
      addContact(operatorContext(request, deps), request.params.id, {
        role: field(request.body, 'role'),
        name: field(request.body, 'name'),
        email: field(request.body, 'email'),
      }),
    show: detailPage,
    done: (_added, request, reply) => reply.redirect(`/console/partners/${request.params.id}?done=contact-added`, 303),
  });
  changeRoute<{ id: string; contactId: string }, unknown>(app, deps, '/partners/:id/contacts/:contactId/remove', {
    run: (request) => removeContact(operatorContext(request, deps), request.params.id, request.params.contactId),
    show: detailPage,
    done: (_removed, request, reply) =>
      reply.redirect(`/console/partners/${request.params.id}?done=contact-removed`, 303),
  });
};
