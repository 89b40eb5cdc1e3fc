import type { Kysely } from 'kysely';
import type { Config } from '../../config/index.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { AuthThrottle } from '../../services/auth-throttle.js';
import type { ConsoleSession, ConsoleSessions } from '../../services/console/sessions.js';
import type { OperatorContext } from '../../services/operators/context.js';
import type { Kit } from './shell.js';

/** The console as a site of the page kit (views/shell.ts): its deps, session, services' context and sections. */
/** What the console's pages are given: the same collaborators as the CLI's commands, never SQL of their own. */
export interface ConsoleDeps {
  config: Config;
  db: Kysely<DB>;
  now: () => Date;
  sessions: ConsoleSessions;
  /** Failed sign-ins by source address (each account also locks on its own). */
  signInThrottle: AuthThrottle;
  secureCookie: boolean;
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

export interface ConsoleKit extends Kit {
  deps: ConsoleDeps;
  session: ConsoleSession;
  ctx: OperatorContext;
  section: Section;
}
