import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import type pino from 'pino';
import { buildApp } from './app.js';
import { createContext } from './composition.js';
import type { Database } from './infrastructure/db/connect.js';
import { ConfigError, loadConfig, shouldSeedDemoData, type Config } from './config/index.js';
import { DataDirectoryInUseError } from './infrastructure/db/data-dir-lock.js';
import { isDatabaseUnavailable } from './infrastructure/db/unavailable.js';
import { migrate, pendingMigrations } from './infrastructure/db/migrate.js';
import { paymentSettings, PaymentSettingsError } from './config/operations.js';
import { missingGrantSettings } from './config/grants.js';
import { missingReceiptSettings } from './config/receipts.js';
import { missingSecurityContact } from './config/security.js';
import { seedDemoData, type DemoPartnerCredential } from './services/sandbox/demo-data.js';
import { createLogger } from './http/logging.js';
import { gracefulShutdown } from './shutdown.js';
import { whileHoldingStartupLock } from './infrastructure/db/startup-lock.js';
import { running } from './http/lifecycle.js';

const STARTUP_DATABASE_WAIT_MS = 30_000;

/** Entry point: validate config, open and migrate the database, load demo data, listen, shut down gracefully. */
async function main() {
  const config = loadConfig();
  boundHeapGrowth(config.HEAP_GROWTH_PERCENT);
  paymentSettings(config); // Refuses a provider that cannot work before anything is opened.
  // Production refuses to start without what partners' security reports and donors' tax receipts need.
  const missing = [
    ...missingSecurityContact(config),
    ...missingReceiptSettings(config),
    ...missingGrantSettings(config),
  ];
  if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`);
  const log = createLogger(config.LOG_LEVEL);
  const context = await createContext(config, {
    logger: log,
    // Every instance works the queue (jobs are claimed with SKIP LOCKED) and shares its maintenance, which retries
    // the jobs of crashed instances; every 2 s, so a dead worker's job is retried soon after its short expiry. The
    // embedded database has no other instance to outlive: there maintenance finds only what a crash of this process
    // left, after the restart, and each round costs the service's own thread ~7 ms
    // (docs/decisions/0054-embedded-workers-woken-in-process.md).
    queue: {
      maintenance: true,
      maintenanceIntervalSeconds: config.DATABASE_URL ? 2 : 10,
      // On PostgreSQL, jobs enqueued by other instances (or the CLI) wake this one's idle workers at once; behind a
      // pooler in transaction mode, within a second (docs/decisions/0075-behind-a-transaction-pooler.md).
      ...(config.DB_POOL_MODE === 'transaction' && config.DATABASE_URL
        ? { wakePollMs: 1000 }
        : { listenUrl: config.DATABASE_URL }),
      finishedJobRetentionSeconds: config.FINISHED_JOB_RETENTION_HOURS * 3600,
      archiveRetentionDays: config.JOB_ARCHIVE_RETENTION_DAYS,
      onError: (err) => log.warn({ err: err.message }, 'job queue error'),
    },
  });
  const { database, workers } = context;
  if (config.MIGRATE_ON_START) await migrateWhenReachable(database, log);
  else await requireCurrentSchema(database);

  const demoCredentials = shouldSeedDemoData(config)
    ? await seedDemoData(database.db, config.APP_ENV, {
        limit: config.QUOTA_DEFAULT_LIMIT,
        windowSeconds: config.QUOTA_DEFAULT_WINDOW_SECONDS,
      })
    : null;

  // The queue is installed before any request can enqueue, by one instance at a time.
  await whileHoldingStartupLock(database, () => context.startJobs());

  const lifecycle = running();
  const app = await buildApp({
    config,
    database,
    logger: log,
    onRemittanceBatchCommitted: () => workers.reconciliation.wake(),
    lifecycle,
  });
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  log.info({ address, database: database.location, environment: config.APP_ENV }, 'listening');
  printBanner(config, address, database, demoCredentials);

  const shutdown = gracefulShutdown({
    config,
    log,
    app,
    lifecycle,
    stopJobs: (ms) => context.stopJobs(ms),
    database,
  });
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** A database that is still starting (a fresh container, a failover) is waited for, not crashed on. */
async function migrateWhenReachable(database: Database, log: pino.Logger) {
  const deadline = Date.now() + STARTUP_DATABASE_WAIT_MS;
  for (;;) {
    try {
      const applied = await migrate(database);
      if (applied.length > 0) log.info({ applied }, 'migrations applied');
      return;
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() > deadline) throw err;
      log.warn({ err: (err as Error).message, database: database.location }, 'database not reachable yet; retrying');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** With MIGRATE_ON_START=false, `fundraiser-admin migrate` runs first: a schema behind the code is refused. */
async function requireCurrentSchema(database: Database) {
  const pending = await pendingMigrations(database);
  if (pending.length > 0)
    throw new ConfigError(
      `MIGRATE_ON_START=false and ${pending.length} migration(s) are pending (${pending.join(', ')}): run \`fundraiser-admin migrate\` first.`,
    );
}

function printBanner(config: Config, address: string, database: Database, credentials: DemoPartnerCredential[] | null) {
  const base = `${config.PUBLIC_BASE_URL ?? address.replace('[::1]', 'localhost')}${config.BASE_PATH}`;
  const lines = [
    '',
    `Fundraiser partner API (${config.APP_ENV}) on ${base} — ${database.location}`,
    `Docs:    ${base}/docs (the API reference, no credentials needed)`,
    `OpenAPI: ${base}/openapi.json`,
  ];
  if (credentials) {
    lines.push('', 'Sandbox demo data loaded. Demo partner credentials (shown once; only hashes are stored):');
    for (const c of credentials)
      lines.push(`  ${c.partner} [${c.channel}]  client_id=${c.clientId}  client_secret=${c.clientSecret}`);
    const first = credentials[0]!;
    lines.push(
      '',
      'Try it:',
      `  curl -s '${base}/fundraisers?channel=${encodeURIComponent(first.channel)}&id=10000001' \\`,
      `    -H "X-Correlation-ID: $(cat /proc/sys/kernel/random/uuid 2>/dev/null || uuidgen)" \\`,
      `    -H 'client_id: ${first.clientId}' -H 'client_secret: ${first.clientSecret}'`,
    );
  } else {
    lines.push(
      '',
      'This database already has partners, so no demo data was loaded. Secrets are shown only when issued',
      '(demo ones at the first start on an empty database); only their hashes are kept.',
      'Issue a new pair with `npx fundraiser-admin credentials issue <partner>` (docs/cli.md), or start on an empty DATA_DIR.',
      `Example call: curl -s '${base}/ping' -H 'X-Correlation-ID: ${randomUUID()}' -H 'client_id: …' -H 'client_secret: …'`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirectoryInUseError || err instanceof PaymentSettingsError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  process.exit(1);
});

/**
 * V8 lets the heap grow up to four times what its last full collection found live while allocation runs fast: a
 * 100,000-entry batch (~100 MB live for a moment) took the process from 190 to 420 MB, most of it garbage nobody
 * had collected. A bounded growth factor costs more frequent full collections (measured: no change in the batch's
 * time) and keeps the peak near what is live. A GC flag read at each collection, so setting it here, before the
 * work, applies to every collection of the process.
 */
function boundHeapGrowth(percent: number) {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
