import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';
import { acquittalsList, recordAcquittal, type AcquittalView } from '../../services/operators/grant-acquittals.js';
import {
  attempt,
  field,
  operatorContext,
  param,
  sessionOf,
  type ConsoleDeps,
  type ConsolePage,
  type Notice,
} from '../route-context.js';
import { canChange, csrfField, dataTable, link, query, readOnlyNote, selectField } from '../views/components.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';

/**
 * Acquittals due and overdue (docs/grants.md, "Acquittals"), soonest due first; an admin records a club's
 * declaration (who, when, the amount of the grant spent, the purpose). The same services as `fundraiser-admin grants
 * acquittals` and `grants acquittal-record`.
 */
export const acquittalsPages: ConsolePage = (app, deps) => {
  app.get('/grants/acquittals', (request, reply) => acquittalsPage(deps, request, reply, null, 200));
  app.post('/grants/acquittals/record', async (request, reply) => {
    const body = request.body;
    const outcome = await attempt(
      () =>
        recordAcquittal(
          operatorContext(request, deps),
          {
            grant: field(body, 'grant'),
            declaredBy: field(body, 'declaredBy'),
            declaredOn: field(body, 'declaredOn'),
            spent: field(body, 'spent'),
            purpose: field(body, 'purpose'),
          },
          deps.config.FOUNDATION_TIME_ZONE,
        ),
      (notice, status) => acquittalsPage(deps, request, reply, notice, status),
    );
    if ('shown' in outcome) return outcome.shown;
    const r = outcome.done;
    const text = `Recorded the acquittal of grant ${r.lodgementReference}: ${aud(r.spentCents)} of ${aud(r.grantCents)} AUD spent.`;
    return acquittalsPage(deps, request, reply, { kind: 'ok', text }, 200);
  });
};

async function acquittalsPage(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  notice: Notice,
  status: number,
) {
  const session = sessionOf(request);
  const overdue = param(request, 'show') === 'overdue';
  const list = await acquittalsList(
    operatorContext(request, deps),
    { overdue, limit: 1000 },
    deps.config.FOUNDATION_TIME_ZONE,
  );
  const filters = html`<form class="filters" method="get" action="/console/grants/acquittals">
    !${selectField({ id: 'show', label: 'Show', options: ['overdue'], chosen: overdue ? 'overdue' : '', any: 'Every open acquittal' })}
    <p><button type="submit">Show</button></p>
  </form>`;
  const body = html`!${filters}!${acquittalTable(list, overdue)}
  !${canChange(session) ? recordForm(session, overdue) : readOnlyNote('acquittals')}`;
  return sendPage(reply, status, { title: 'Acquittals', section: 'grants', session, notice }, body);
}

export const acquittalTable = (list: AcquittalView[], overdue: boolean) =>
  dataTable(
    list,
    [
      { header: 'Grant', text: (a) => a.lodgementReference },
      { header: 'Club', cell: (a) => link(`/console/grants/clubs/${a.memberNumber}`, `${a.club} (${a.memberNumber})`) },
      { header: 'Grant (AUD)', text: (a) => aud(a.grantCents), numeric: true },
      { header: 'Due', text: (a) => a.dueOn },
      { header: 'State', text: (a) => a.state },
      { header: 'Reminded', text: (a) => a.remindedAt },
      { header: 'Declared', text: (a) => (a.declaredBy ? `${a.declaredBy} on ${a.declaredOn}` : null) },
      { header: 'Spent (AUD)', text: (a) => (a.spentCents === null ? null : aud(a.spentCents)), numeric: true },
    ],
    {
      caption: overdue ? 'Overdue acquittals (they hold the club’s next grants)' : 'Open acquittals, soonest due first',
      empty: overdue ? 'No acquittal is overdue.' : 'No acquittal is open.',
    },
  );

const recordForm = (session: ConsoleSession, overdue: boolean) =>
  html`<h2>Record a declaration</h2>
    <form method="post" action="/console/grants/acquittals/record${query({ show: overdue ? 'overdue' : undefined })}">
      !${csrfField(session)}
      <p>
        <label for="grant">Grant (lodgement reference)</label><input id="grant" name="grant" required maxlength="18" />
      </p>
      <p>
        <label for="declaredBy">Declared by</label><input id="declaredBy" name="declaredBy" required maxlength="200" />
      </p>
      <p><label for="declaredOn">Declared on</label><input id="declaredOn" name="declaredOn" type="date" required /></p>
      <p><label for="spent">Amount spent (AUD)</label><input id="spent" name="spent" required inputmode="decimal" /></p>
      <p>
        <label for="purpose">Purpose</label><textarea id="purpose" name="purpose" required maxlength="2000"></textarea>
      </p>
      <p><button type="submit">Record</button></p>
    </form>`;
