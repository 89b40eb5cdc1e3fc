import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/index.js';
import type { Database } from '../infrastructure/db/connect.js';
import type { MetricsCollector } from '../infrastructure/metrics/metrics.js';
import type { PaymentProvider } from '../infrastructure/payments/provider.js';
import type { OnBatchStored } from '../services/accept-remittances.js';
import type { Lifecycle } from './lifecycle.js';

/** What an application is built from (buildApp in src/app.ts): settings, the database, and optional collaborators. */
export interface AppDeps {
  config: Config;
  database: Database;
  /** Defaults to the sandbox simulator outside production; production must supply the real provider. */
  payments?: PaymentProvider;
  /** Injectable clock (credential expiry); defaults to the system clock. */
  now?: () => Date;
  /** A pino logger, or false for silence (tests). Defaults to JSON logs at LOG_LEVEL with secrets redacted. */
  logger?: FastifyBaseLogger | false;
  /** Called in the transaction that stores a remittance batch. Defaults to enqueuing its reconciliation job. */
  onRemittanceBatchStored?: OnBatchStored;
  /** Called after a new batch is committed; the server wakes its reconciliation worker. */
  onRemittanceBatchCommitted?: () => void;
  /** The server's shutdown state (readiness, `Connection: close`); an app that is never shut down has none. */
  lifecycle?: Lifecycle;
  /** Extra metrics for GET /metrics (the job queue's, for one), added to this app's own registry. */
  metricsCollectors?: MetricsCollector[];
}
