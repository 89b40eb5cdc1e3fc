import type { AppDeps } from '../app.js';
import type { Config } from '../config.js';
import type { Database } from '../infrastructure/db/connect.js';
import type { AppMetrics } from '../infrastructure/metrics/metrics.js';
import type { PaymentProvider } from '../infrastructure/payments/provider.js';
import type { PaymentSimulator } from '../infrastructure/payments/simulator.js';
import { directDonationWriter, donationGroupCommit } from '../services/donation-group-commit.js';
import { EnrolmentCache } from '../services/enrolment.js';
import { directMandateWriter, mandateGroupCommit } from '../services/mandate-writer.js';
import { enqueueReconciliation } from '../services/reconciliation/enqueue.js';
import { webhookSettings } from '../services/webhooks/settings.js';
import type { App, RouteDeps } from './route-context.js';
import { routes } from './routes/index.js';

/** The partner API's routes under BASE_PATH, and its OpenAPI document. */
export async function registerRoutes(
  app: App,
  deps: AppDeps,
  {
    payments,
    simulator,
    metrics,
  }: { payments: PaymentProvider; simulator: PaymentSimulator | null; metrics: AppMetrics },
) {
  const { config, database } = deps;
  // Each stored batch gets its reconciliation job in the same transaction (DESIGN.md §12): no batch without a job.
  const onRemittanceBatchStored = deps.onRemittanceBatchStored ?? enqueueReconciliation;

  // Refuses to build in production without WEBHOOK_SECRET_KEY.
  const webhooks = webhookSettings(config);
  const routeDeps: RouteDeps = {
    config,
    database,
    db: database.db,
    payments,
    simulator,
    onRemittanceBatchStored,
    onRemittanceBatchCommitted: deps.onRemittanceBatchCommitted,
    webhooks,
    enrolments: new EnrolmentCache(),
    donations: donationWriter(config, database, metrics),
    mandates: mandateWriter(config, database, metrics),
  };
  // Answers every donation and mandate still waiting for its group's statement before the database closes.
  app.addHook('onClose', async () => {
    await Promise.all([routeDeps.donations.close(), routeDeps.mandates.close()]);
  });
  await app.register(
    async (scoped) => {
      for (const route of routes) await route(scoped, routeDeps);
      scoped.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
    },
    { prefix: config.BASE_PATH },
  );
}

/** Group commit of donations (DONATION_GROUP_COMMIT), or one statement each. */
function donationWriter(config: Config, database: Database, metrics: AppMetrics) {
  if (!config.DONATION_GROUP_COMMIT) return directDonationWriter(database.db);
  return donationGroupCommit(database.db, {
    maxWaitMs: config.DONATION_GROUP_COMMIT_MAX_WAIT_MS,
    maxRows: config.DONATION_GROUP_COMMIT_MAX_ROWS,
    onGroup: (rows) => metrics.donationGroupRows.observe(rows),
  });
}

/** Group commit of new mandates (MANDATE_GROUP_COMMIT), or one statement each. */
function mandateWriter(config: Config, database: Database, metrics: AppMetrics) {
  if (!config.MANDATE_GROUP_COMMIT) return directMandateWriter(database.db);
  return mandateGroupCommit(database.db, {
    maxWaitMs: config.MANDATE_GROUP_COMMIT_MAX_WAIT_MS,
    maxRows: config.MANDATE_GROUP_COMMIT_MAX_ROWS,
    onGroup: (rows) => metrics.mandateGroupRows.observe(rows),
  });
}
