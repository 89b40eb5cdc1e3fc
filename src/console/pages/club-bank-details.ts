import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { setBankDetails } from '../../services/grants/bank-details/enter.js';
import { bankDetailsSettings } from '../../services/grants/bank-details/settings.js';
import { showBankDetails } from '../../services/grants/bank-details/show.js';
import { addClubContact, removeClubContact, setClubGst } from '../../services/grants/club-contacts.js';
import { InvalidInputError } from '../../services/operators/operator-errors.js';
import {
  attempt,
  field,
  operatorContext,
  sessionOf,
  type ConsoleDeps,
  type ConsolePage,
  type Notice,
} from '../route-context.js';
import {
  addContactForm,
  contactsTable,
  detailsCard,
  gstForm,
  historyTable,
  removeContactForm,
  setDetailsForm,
} from '../views/club-bank.js';
import { canChange, detailList, readOnlyNote } from '../views/components.js';
import { sendPage } from '../views/layout.js';

type Club = { Params: { id: string } };
type Contact = { Params: { id: string; contactId: string } };

/**
 * A club's bank details (docs/grants.md, "Bank details"): the details paid to, the change waiting, every version,
 * its contacts and GST flag. Admins see account numbers whole (each view audited) and enter changes, contacts and
 * the GST flag; viewers see numbers masked. The same services as `fundraiser-admin grants bank-*`.
 */
export const clubBankDetailsPages: ConsolePage = (app, deps) => {
  const settings = bankDetailsSettings(deps.config);
  app.get<Club>('/accounts/:id/bank', (request, reply) => clubPage(deps, request, reply, null, 200));

  const change = changer(deps);

  app.post<Club>('/accounts/:id/bank', (request, reply) =>
    change(
      request,
      reply,
      () =>
        setBankDetails(
          operatorContext(request, deps),
          settings,
          request.params.id,
          {
            bsb: field(request.body, 'bsb'),
            accountNumber: field(request.body, 'accountNumber'),
            accountName: field(request.body, 'accountName'),
          },
          'console',
        ),
      (entered) =>
        `New bank details are pending until another operator verifies them. ` +
        (entered.told.length > 0
          ? `Told of the change: ${entered.told.join(', ')}.`
          : 'The club has no contacts on file: nobody was told of the change.'),
    ),
  );

  contactAndGstPages(app, deps);
};

/** A club's contacts and GST flag: added, removed, set (audited by the services). */
const contactAndGstPages: ConsolePage = (app, deps) => {
  const change = changer(deps);

  app.post<Club>('/accounts/:id/bank/contacts', (request, reply) =>
    change(
      request,
      reply,
      () =>
        addClubContact(operatorContext(request, deps), request.params.id, {
          role: field(request.body, 'role'),
          name: field(request.body, 'name'),
          email: field(request.body, 'email'),
        }),
      (contact) => `${contact.name} is a ${contact.role} contact of the club.`,
    ),
  );

  app.post<Contact>('/accounts/:id/bank/contacts/:contactId/remove', (request, reply) =>
    change(
      request,
      reply,
      () => removeClubContact(operatorContext(request, deps), request.params.id, request.params.contactId),
      (contact) => `${contact.name} is no longer a ${contact.role} contact of the club.`,
    ),
  );

  app.post<Club>('/accounts/:id/bank/gst', (request, reply) =>
    change(
      request,
      reply,
      () => setClubGst(operatorContext(request, deps), request.params.id, yesNo(field(request.body, 'registered'))),
      (result) => `${result.club} is ${result.gstRegistered ? '' : 'not '}registered for GST.`,
    ),
  );
};

/** Runs a change and shows the page again with what happened (or what went wrong). */
const changer =
  (deps: ConsoleDeps) =>
  <T>(request: FastifyRequest<Club>, reply: FastifyReply, work: () => Promise<T>, done: (result: T) => string) =>
    attempt(work, (notice, status) => clubPage(deps, request, reply, notice, status)).then((outcome) =>
      'shown' in outcome
        ? outcome.shown
        : clubPage(deps, request, reply, { kind: 'ok', text: done(outcome.done) }, 200),
    );

function yesNo(value: string): boolean {
  if (value === 'yes' || value === 'no') return value === 'yes';
  throw new InvalidInputError('Say whether the club is registered for GST: yes or no.');
}

async function clubPage(
  deps: ConsoleDeps,
  request: FastifyRequest<Club>,
  reply: FastifyReply,
  notice: Notice,
  status: number,
) {
  const session = sessionOf(request);
  const admin = canChange(session);
  const view = await showBankDetails(
    operatorContext(request, deps),
    bankDetailsSettings(deps.config),
    request.params.id,
    {
      unmask: admin,
      via: 'console',
    },
  );
  const base = `/console/accounts/${encodeURIComponent(view.memberNumber)}/bank`;
  const head = detailList([
    ['Member number', view.memberNumber],
    ['Registered for GST', view.gstRegistered ? 'yes' : 'no'],
    ['Hold on new details', `${view.holdDays} day(s) after entry, unless the verifier waived it`],
    ['Account numbers', admin ? 'shown whole to you (an admin); this view is audited' : 'masked: last 3 digits'],
  ]);
  const links = html`<p>
    <a href="/console/accounts/${encodeURIComponent(view.memberNumber)}">The account</a> ·
    <a href="/console/grants/bank-changes">Pending bank changes</a> ·
    <a href="/console/audit?subject=${encodeURIComponent(view.memberNumber)}">Audit trail</a>
  </p>`;
  const removeForm = admin
    ? (c: Parameters<typeof removeContactForm>[2]) =>
        removeContactForm(session, `${base}/contacts/${encodeURIComponent(c.id)}/remove`, c)
    : null;
  const forms = admin
    ? html`!${gstForm(session, `${base}/gst`, view.gstRegistered)}
      !${view.pending ? '' : setDetailsForm(session, base)}!${addContactForm(session, `${base}/contacts`)}`
    : readOnlyNote('bank details, contacts or the GST flag');
  const body = html`!${links}!${head}
  !${detailsCard('Current bank details (paid to)', view.current, 'None verified: grants to this club are held.')}
  !${detailsCard('Pending change', view.pending, 'No change is waiting.')}
  !${historyTable(view.history)}!${contactsTable(view.contacts, removeForm)}!${forms}`;
  return sendPage(reply, status, { title: `${view.club}: bank details`, section: 'accounts', session, notice }, body);
}
