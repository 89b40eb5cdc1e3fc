import type { FastifyReply } from 'fastify';
import { sendFramedPage, type Frame } from './frame.js';
import type { ConsoleKit, Section } from './console-kit.js';
import type { PageOptions as KitPageOptions } from './shell.js';

/** The console's page frame (views/frame.ts, shared with the partner portal) and its navigation. */
export type PageOptions = KitPageOptions<ConsoleKit>;

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

const consoleFrame: Frame<ConsoleKit> = {
  name: 'Fundraiser console',
  home: '/console',
  stylesheet: '/console/static/console.css',
  script: '/console/static/console.js',
  nav: () => NAV,
  signOut: '/console/logout',
  who: (session) => `${session.email} (${session.role})`,
};

/** Answers with a whole console page: the one place that sets a page's status and content type. */
export function sendPage(reply: FastifyReply, status: number, options: PageOptions, body: string): FastifyReply {
  return sendFramedPage(consoleFrame, reply, status, options, body);
}
