import type { Config } from '../config/index.js';
import { consoleEnabled, consoleSecureCookie } from '../config/index.js';
import { consoleSignInThrottle } from '../http/auth-throttle.js';
import type { App } from '../http/route-context.js';
import type { Database } from '../infrastructure/db/connect.js';
import { ConsoleSessions } from '../services/console/sessions.js';
import { consolePlugin } from './plugin.js';

/** The operator console under /console, when it is enabled. */
export async function registerConsole(
  app: App,
  { config, database }: { config: Config; database: Database },
  now: () => Date,
): Promise<void> {
  if (!consoleEnabled(config)) return;
  const sessions = new ConsoleSessions(database.db, consoleSessionSettings(config), now);
  await app.register(consolePlugin, {
    prefix: '/console',
    config,
    db: database.db,
    now,
    sessions,
    signInThrottle: consoleSignInThrottle(config, database, app.log, now),
    secureCookie: consoleSecureCookie(config),
  });
}

/** Five wrong passwords in a row lock an operator out for 15 minutes (an admin's reset-password lifts it). */
const consoleSessionSettings = (config: Config) => ({
  ttlMs: config.CONSOLE_SESSION_IDLE_MINUTES * 60_000,
  maxFailures: 5,
  lockMs: 15 * 60_000,
});
