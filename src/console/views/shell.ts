import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What makes the page kit (list pages, filters, change routes, the page frame) serve one site rather than another:
 * the console and the partner portal each describe themselves once as a Shell and hand it to the same kit
 * (docs/decisions/0083-portal-shares-the-console-kit.md).
 */
export interface Kit {
  /** What the site's pages are given (its collaborators). */
  deps: unknown;
  /** The signed-in person, as the guard resolved it; it carries the session's CSRF token. */
  session: { csrfToken: string };
  /** The services' context of the signed-in person: the actor of every audited change. */
  ctx: unknown;
  /** The navigation entries. */
  section: string;
}

export interface PageOptions<K extends Kit> {
  title: string;
  /** Which navigation entry is current. */
  section?: K['section'];
  session?: K['session'] | null;
  /** A message shown above the content: the outcome of the last change, or what went wrong. */
  notice?: { kind: 'ok' | 'error'; text: string } | null;
}

export interface Shell<K extends Kit> {
  /** Where the site is mounted: '/console'. */
  prefix: string;
  /** Answers with a whole page in the site's frame. */
  sendPage: (reply: FastifyReply, status: number, options: PageOptions<K>, body: string) => FastifyReply;
  sessionOf: (request: FastifyRequest) => K['session'];
  contextOf: (request: FastifyRequest, deps: K['deps']) => K['ctx'];
}
