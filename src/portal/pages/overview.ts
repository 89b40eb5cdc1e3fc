import { html } from 'ghtml';
import { detailList } from '../../console/views/components.js';
import { may } from '../../domain/portal-roles.js';
import { portalSessionOf, type PortalPage } from '../route-context.js';
import { sendPage } from '../views/layout.js';

/** The overview: the partner, the environment, and links to what the user's role may see. */
export const overviewPage: PortalPage = (app, deps) => {
  app.get('/', async (request, reply) => {
    const session = portalSessionOf(request);
    const links: [string, string, boolean][] = [
      [
        '/portal/credentials',
        'Credentials: the pairs, their expiry and last use; rotate one',
        may(session.role, 'read', 'credentials'),
      ],
      [
        '/portal/webhooks',
        'Webhooks: your endpoints, each delivery and its answers; resend; the event log',
        may(session.role, 'read', 'webhooks'),
      ],
      [
        '/portal/money',
        'Money: remittance batches and their reports, reversals owed back, plans and debits',
        may(session.role, 'read', 'money'),
      ],
      [
        '/portal/sandbox',
        'Sandbox: your clock and its advance, the test accounts, sample receipts',
        // Served outside production only, as the API's /sandbox routes.
        deps.recurring.simulator !== null && may(session.role, 'read', 'sandbox'),
      ],
      ['/portal/users', 'Users: invite people of your team, change their roles', may(session.role, 'read', 'users')],
    ];
    const body = html`${''}!${detailList([
        ['Partner', session.partnerName],
        ['Environment', deps.config.APP_ENV],
        ['Signed in as', `${session.email} (${session.role})`],
      ])}
      <h2>Quick links</h2>
      <ul class="links">
        !${links.filter(([, , shown]) => shown).map(([href, text]) => html`<li><a href="${href}">${text}</a></li>`)}
      </ul>`;
    return sendPage(reply, 200, { title: 'Overview', section: 'overview', session }, body);
  });
};
