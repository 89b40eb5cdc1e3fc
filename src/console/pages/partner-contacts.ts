import { addContact, removeContact } from '../../services/operators/partner-contacts.js';
import { attempt, field, operatorContext, type ConsolePage } from '../route-context.js';
import { detailPage } from './partners.js';

/** Adding and removing a partner's contacts (admins); the partner's page lists them (views/contacts.ts). */
export const partnerContactsPages: ConsolePage = (app, deps) => {
  app.post<{ Params: { id: string } }>('/partners/:id/contacts', async (request, reply) => {
    const { id } = request.params;
    const result = await attempt(
      () =>
        addContact(operatorContext(request, deps), id, {
          role: field(request.body, 'role'),
          name: field(request.body, 'name'),
          email: field(request.body, 'email'),
        }),
      (notice, status) => detailPage(request, reply, deps, id, notice, status),
    );
    if ('shown' in result) return result.shown;
    return reply.redirect(`/console/partners/${id}?done=contact-added`, 303);
  });

  app.post<{ Params: { id: string; contactId: string } }>(
    '/partners/:id/contacts/:contactId/remove',
    async (request, reply) => {
      const { id, contactId } = request.params;
      const result = await attempt(
        () => removeContact(operatorContext(request, deps), id, contactId),
        (notice, status) => detailPage(request, reply, deps, id, notice, status),
      );
      if ('shown' in result) return result.shown;
      return reply.redirect(`/console/partners/${id}?done=contact-removed`, 303);
    },
  );
};
