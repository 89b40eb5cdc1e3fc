import { html } from 'ghtml';
import { listClubGrants } from '../../services/operators/club-grants.js';
import { acquittalsList } from '../../services/operators/grant-acquittals.js';
import { operatorContext, sessionOf, type ConsolePage } from '../route-context.js';
import { dataTable, link } from '../views/components.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';
import { acquittalTable } from './acquittals.js';

/** A club's grants, newest first, and its acquittals (docs/grants.md, "Operators"). */
export const clubGrantsPage: ConsolePage = (app, deps) => {
  app.get<{ Params: { member: string } }>('/grants/clubs/:member', async (request, reply) => {
    const ctx = operatorContext(request, deps);
    const club = await listClubGrants(ctx, request.params.member);
    const acquittals = await acquittalsList(
      ctx,
      { accountId: club.accountId, limit: 1000 },
      deps.config.FOUNDATION_TIME_ZONE,
    );
    const body = html`<p>
        ${`${club.name} (member ${club.memberNumber})${club.gstRegistered ? ', registered for GST' : ''}`}
      </p>
      !${dataTable(
        club.grants,
        [
          { header: 'Round', cell: (g) => link(`/console/grants/rounds/${g.round}`, g.round) },
          { header: 'Status', text: (g) => g.status },
          { header: 'Held because', text: (g) => g.holdReason },
          { header: 'Grant (AUD)', text: (g) => aud(g.amountCents), numeric: true },
          { header: 'Lodgement reference', text: (g) => g.lodgementReference },
          { header: 'Advised', text: (g) => g.advisedAt },
          { header: 'RCTI', text: (g) => g.rctiNumber },
        ],
        { caption: 'Grants, newest first', empty: 'No grant to this club yet.' },
      )}
      !${acquittalTable(acquittals, false)}`;
    const title = `Grants to ${club.name}`;
    return sendPage(reply, 200, { title, section: 'grants', session: sessionOf(request) }, body);
  });
};
