import type { Config } from '../config/index.js';
import { consoleSecureCookie, portalEnabled } from '../config/index.js';
import { webhookSecretKey } from '../config/webhooks.js';
import { portalSignInThrottle } from '../http/auth-throttle.js';
import type { App } from '../http/route-context.js';
import type { Database } from '../infrastructure/db/connect.js';
import { PortalSessions } from '../services/portal/sessions.js';
import { TotpSecrets } from '../services/portal/totp.js';
import { portalPlugin } from './plugin.js';
import { recurringDepsOf } from '../http/partner-routes.js';
import type { PaymentProvider } from '../infrastructure/payments/provider.js';
import type { PaymentSimulator } from '../infrastructure/payments/simulator.js';

/** The partner portal under /portal, when it is enabled. */
export async function registerPortal(
  app: App,
  { config, database }: { config: Config; database: Database },
  now: () => Date,
  { payments, simulator }: { payments: PaymentProvider; simulator: PaymentSimulator | null },
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
    // The sandbox's clock and payments (null in production, where the Sandbox pages are not served).
    recurring: recurringDepsOf(config, database, payments, simulator, now),
  });
}
