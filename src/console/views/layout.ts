import type { FastifyReply } from 'fastify';
import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';

/**
 * The page around every console view. Templates use ghtml's `html`, which escapes every interpolated value;
 * `!${...}` inserts already-rendered HTML (another template's output) and is used for nothing else.
 * No inline script or style anywhere: the stylesheet and the script are static files (a strict CSP allows them).
 */
export interface PageOptions {
  title: string;
  /** Which navigation entry is current. */
  section?: Section;
  session?: ConsoleSession | null;
  /** A message shown above the content: the outcome of the last change, or what went wrong. */
  notice?: { kind: 'ok' | 'error'; text: string } | null;
}

export type Section =
  | 'dashboard'
  | 'partners'
  | 'credentials'
  | 'accounts'
  | 'donations'
  | 'recurring'
  | 'debits'
  | 'remittances'
  | 'bank'
  | 'owed'
  | 'grants'
  | 'receipts'
  | 'mail'
  | 'privacy'
  | 'audit'
  | 'grant-bank'
  | 'webhooks';

const NAV: [Section, string, string][] = [
  ['dashboard', 'Dashboard', '/console'],
  ['partners', 'Partners', '/console/partners'],
  ['credentials', 'Credentials', '/console/credentials'],
  ['accounts', 'Fundraisers', '/console/accounts'],
  ['donations', 'Donations', '/console/donations'],
  ['recurring', 'Recurring', '/console/recurring'],
  ['debits', 'Debits', '/console/debits'],
  ['remittances', 'Remittances', '/console/remittances'],
  ['bank', 'Bank', '/console/bank'],
  ['owed', 'Owed back', '/console/reversals/owed'],
  ['grants', 'Grants', '/console/grants/rounds'],
  ['receipts', 'Receipts', '/console/receipts'],
  ['grant-bank', 'Bank changes', '/console/grants/bank-changes'],
  ['mail', 'Mail', '/console/mail'],
  ['privacy', 'Privacy', '/console/privacy'],
  ['webhooks', 'Webhooks', '/console/webhooks'],
  ['audit', 'Audit log', '/console/audit'],
];

/** Answers with a whole console page: the one place that sets a page's status and content type. */
export function sendPage(reply: FastifyReply, status: number, options: PageOptions, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page(options, body));
}

function page(options: PageOptions, body: string): string {
  const { session } = options;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · Fundraiser console</title>
        <link rel="stylesheet" href="/console/static/console.css" />
        <script src="/console/static/console.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="/console">Fundraiser console</a>
          !${
            session
              ? html`<nav aria-label="Main">
                    <ul>
                      !${NAV.map(([id, label, href]) => navItem(id, label, href, options.section))}
                    </ul>
                  </nav>
                  <form class="signout" method="post" action="/console/logout">
                    <input type="hidden" name="_csrf" value="${session.csrfToken}" />
                    <span class="who">${session.email} (${session.role})</span>
                    <button type="submit">Sign out</button>
                  </form>`
              : ''
          }
        </header>
        <main id="main">
          <h1>${options.title}</h1>
          !${options.notice ? html`<p class="notice ${options.notice.kind}" role="${options.notice.kind === 'error' ? 'alert' : 'status'}">${options.notice.text}</p>` : ''}
          !${body}
        </main>
      </body>
    </html>`;
}

function navItem(id: Section, label: string, href: string, current?: Section): string {
  return id === current
    ? html`<li><a href="${href}" aria-current="page">${label}</a></li>`
    : html`<li><a href="${href}">${label}</a></li>`;
}
