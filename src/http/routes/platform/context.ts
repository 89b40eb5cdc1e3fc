import type { Config } from '../../../config/index.js';
import type { Lifecycle } from '../../lifecycle.js';
import type { Database } from '../../../infrastructure/db/connect.js';
import type { AppMetrics } from '../../../infrastructure/metrics/metrics.js';
import type { StripeIntegration } from '../../../infrastructure/payments/select-provider.js';

/** What the routes outside the partner base path need (probes, metrics, Stripe's webhook). */
export interface OperationsDeps {
  config: Config;
  database: Database;
  metrics: AppMetrics;
  /** Null unless PAYMENT_PROVIDER=stripe. */
  stripe: StripeIntegration | null;
  /** The application's clock: a failed debit's next try is dated by it (Stripe's webhook). */
  now: () => Date;
  /** Redis of the quota store, when configured. */
  redisPing?: () => Promise<void>;
  /** The server's shutdown state: readiness goes DOWN as soon as it stops. */
  lifecycle?: Lifecycle;
}

/** These paths are not under BASE_PATH: the document's server for them is the bare host. */
export const hostServers = (config: Config) => [
  { url: config.PUBLIC_BASE_URL ?? '/', description: 'This deployment, outside the API base path' },
];
