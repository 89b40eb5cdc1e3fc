import type { FastifyReply } from 'fastify';
import { html } from 'ghtml';
import type { Kit, PageOptions } from './shell.js';

/**
 * The page around every view of a site of the kit (the console, the partner portal). Templates use ghtml's `html`,
 * which escapes every interpolated value; `!${...}` inserts already-rendered HTML (another template's output) and is
 * used for nothing else. No inline script or style anywhere: the stylesheet and the script are static files (a
 * strict CSP allows them).
 */
export interface Frame<K extends Kit> {
  /** The brand and the end of every title: 'Fundraiser console'. */
  name: string;
  /** Where the brand links. */
  home: string;
  stylesheet: string;
  script: string;
  /** The navigation entries a session sees: id, label, address. */
  nav: (session: K['session']) => readonly (readonly [K['section'], string, string])[];
  /** Where the sign-out form posts. */
  signOut: string;
  /** Who is signed in, as the header shows it. */
  who: (session: K['session']) => string;
}

/** Answers with a whole page: the one place that sets a page's status and content type. */
export function sendFramedPage<K extends Kit>(
  frame: Frame<K>,
  reply: FastifyReply,
  status: number,
  options: PageOptions<K>,
  body: string,
): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(framedPage(frame, options, body));
}

function framedPage<K extends Kit>(frame: Frame<K>, options: PageOptions<K>, body: string): string {
  const { session } = options;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · ${frame.name}</title>
        <link rel="stylesheet" href="${frame.stylesheet}" />
        <script src="${frame.script}" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="${frame.home}">${frame.name}</a>
          !${
            session
              ? html`<nav aria-label="Main">
                    <ul>
                      !${frame.nav(session).map(([id, label, href]) => navItem(id, label, href, options.section))}
                    </ul>
                  </nav>
                  <form class="signout" method="post" action="${frame.signOut}">
                    <input type="hidden" name="_csrf" value="${session.csrfToken}" />
                    <span class="who">${frame.who(session)}</span>
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

function navItem(id: string, label: string, href: string, current?: string): string {
  return id === current
    ? html`<li><a href="${href}" aria-current="page">${label}</a></li>`
    : html`<li><a href="${href}">${label}</a></li>`;
}
