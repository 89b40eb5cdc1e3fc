import type { Config } from '../config/index.js';
import { consoleSecureCookie, portalEnabled } from '../config/index.js';
import { webhookSecretKey } from '../config/webhooks.js';
import { portalSignInThrottle } from '../http/auth-throttle.js';
import type { App } from '../http/route-context.js';
import type { Database } from '../infrastructure/db/connect.js';
import { PortalSessions } from '../services/portal/sessions.js';
import { TotpSecrets } from '../services/portal/totp.js';
import { portalPlugin } from './plugin.js';

/** The partner portal under /portal, when it is enabled. */
export async function registerPortal(
  app: App,
  { config, database }: { config: Config; database: Database },
  now: () => Date,
): Promise<void> {
  if (!portalEnabled(config)) return;
  const totpSecrets = new TotpSecrets(webhookSecretKey(config));
  const sessions = new PortalSessions(
    database.db,
    {
      idleMs: config.PORTAL_SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: config.PORTAL_SESSION_MAX_HOURS * 3_600_000,
      secondStepMs: 10 * 60_000,
    },
    totpSecrets,
    now,
  );
  await app.register(portalPlugin, {
    prefix: '/portal',
    config,
    db: database.db,
    now,
    sessions,
    totpSecrets,
    signInThrottle: portalSignInThrottle(config, database, app.log, now),
    // The same rule as the console's cookies: Secure in production or behind an https base URL.
    secureCookie: consoleSecureCookie(config),
  });
}
