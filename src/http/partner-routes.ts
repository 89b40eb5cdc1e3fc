import { retryDelaysDays, type Config } from '../config/index.js';
import type { Database } from '../infrastructure/db/connect.js';
import type { RecurringDeps } from '../services/recurring/deps.js';
import type { AppDeps } from './app-deps.js';
import type { AppMetrics } from '../infrastructure/metrics/metrics.js';
import type { PaymentProvider } from '../infrastructure/payments/provider.js';
import type { PaymentSimulator } from '../infrastructure/payments/simulator.js';
import { donationStatements } from '../services/donation-group-commit.js';
import { EnrolmentCache } from '../services/enrolment.js';
import { rowWriter } from '../services/group-commit.js';
import { mandateStatements } from '../services/mandate-writer.js';
import { BacklogGate } from '../services/reconciliation/backlog-gate.js';
import { enqueueReconciliation } from '../services/reconciliation/enqueue.js';
import { webhookSettings } from '../services/webhooks/settings.js';
import type { App, RouteDeps } from './route-context.js';
import { routes } from './routes/index.js';
import { receiptPolicy } from '../config/receipts.js';
import { captureRequests, requestLogWriter } from './request-log-hooks.js';
import type { RequestLogWriter } from '../services/request-log/writer.js';

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
  // Each stored batch gets its reconciliation job in the same transaction: no batch without a job
  // (docs/decisions/0015-remittance-batches-stored-before-the-202.md).
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
    remittanceBacklog: backlogGate(deps, metrics),
    webhooks,
    enrolments: new EnrolmentCache(),
    ...writers(deps, metrics),
    now: deps.now ?? (() => new Date()),
    recurring: recurringDepsOf(config, database, payments, simulator, deps.now ?? (() => new Date())),
  };
  // Answers every donation and mandate still waiting for its group's statement before the database closes.
  app.addHook('onClose', async () => {
    await Promise.all([routeDeps.donations.close(), routeDeps.mandates.close()]);
  });
  // The partner request log: only this scope's routes are captured (docs/decisions/0088-request-log-masked-and-buffered.md).
  const requestLog = requestLogWriter(app, deps, metrics.registry);
  app.decorate('requestLog', requestLog);
  await app.register(
    async (scoped) => {
      if (requestLog) captureRequests(scoped, requestLog);
      for (const route of routes) await route(scoped, routeDeps);
      scoped.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
    },
    { prefix: config.BASE_PATH },
  );
}

/** This app's door on new remittance batches, its gauges in the app's registry. */
function backlogGate({ config, database, now }: AppDeps, metrics: AppMetrics): BacklogGate {
  const gate = new BacklogGate(
    database.db,
    {
      maxBatches: config.REMITTANCE_BACKLOG_MAX_BATCHES,
      maxAgeSeconds: config.REMITTANCE_BACKLOG_MAX_AGE_SECONDS,
      retryAfterSeconds: config.REMITTANCE_BACKLOG_RETRY_AFTER_SECONDS,
    },
    now ? () => now().getTime() : undefined,
  );
  gate.register(metrics.registry);
  return gate;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The request log's writer (null when PARTNER_REQUEST_LOG is off): tests and shutdown flush it. */
    requestLog: RequestLogWriter | null;
  }
}

/**
 * How donations and mandates without an Idempotency-Key are written: group commit (DONATION_GROUP_COMMIT,
 * MANDATE_GROUP_COMMIT and their bounds), or one statement each.
 */
function writers({ config, database: { db } }: AppDeps, metrics: AppMetrics) {
  const groupCommit = (on: boolean, maxWaitMs: number, maxRows: number, sizes: AppMetrics['donationGroupRows']) =>
    on ? { maxWaitMs, maxRows, onGroup: (rows: number) => sizes.observe(rows) } : null;
  const donations = groupCommit(
    config.DONATION_GROUP_COMMIT,
    config.DONATION_GROUP_COMMIT_MAX_WAIT_MS,
    config.DONATION_GROUP_COMMIT_MAX_ROWS,
    metrics.donationGroupRows,
  );
  const mandates = groupCommit(
    config.MANDATE_GROUP_COMMIT,
    config.MANDATE_GROUP_COMMIT_MAX_WAIT_MS,
    config.MANDATE_GROUP_COMMIT_MAX_ROWS,
    metrics.mandateGroupRows,
  );
  return {
    donations: rowWriter(donationStatements(db), donations),
    mandates: rowWriter(mandateStatements(db), mandates),
  };
}

/** What the recurring-donation services work with, from the settings: the API's routes and the portal's. */
export function recurringDepsOf(
  config: Config,
  database: Database,
  payments: PaymentProvider,
  simulator: PaymentSimulator | null,
  now: () => Date,
): RecurringDeps {
  return {
    db: database.db,
    provider: payments,
    simulator,
    policy: {
      retryDelaysDays: retryDelaysDays(config),
      cancelAfterFailedDebits: config.RECURRING_CANCEL_AFTER_FAILED_DEBITS,
      receipts: receiptPolicy(config),
    },
    timeZone: config.FOUNDATION_TIME_ZONE,
    now,
  };
}
