import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, shouldSeedDemoData, type Config } from './config.js';
import { connectDatabase, type Database } from './infrastructure/db/connect.js';
import { DataDirectoryInUseError } from './infrastructure/db/data-dir-lock.js';
import { isDatabaseUnavailable } from './infrastructure/db/errors.js';
import { migrate } from './infrastructure/db/migrate.js';
import { JobQueue } from './infrastructure/queue/job-queue.js';
import { seedDemoData, type DemoPartnerCredential } from './infrastructure/seed/demo-data.js';
import { REDACTED_PATHS } from './http/logging.js';
import { ReconciliationWorker } from './services/reconciliation/worker.js';

const STARTUP_DATABASE_WAIT_MS = 30_000;

/** Entry point: validate config, open and migrate the database, load demo data, listen, shut down gracefully. */
async function main() {
  const config = loadConfig();
  const log = pino({ level: config.LOG_LEVEL, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
  const database = await connectDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax: config.DB_POOL_MAX,
    connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    logger: log,
  });
  await migrateWhenReachable(database, log);

  const demoCredentials = shouldSeedDemoData(config)
    ? await seedDemoData(database.db, config.APP_ENV, { limit: config.QUOTA_DEFAULT_LIMIT, windowSeconds: config.QUOTA_DEFAULT_WINDOW_SECONDS })
    : null;

  // Remittance reconciliation: the queue is installed before any request can enqueue, and every instance works it
  // (jobs are claimed with SKIP LOCKED) and shares its maintenance, which retries the jobs of crashed instances.
  const jobQueue = await JobQueue.start(database, { maintenance: true, onError: (err) => log.warn({ err: err.message }, 'job queue error') });
  await new ReconciliationWorker(jobQueue, database, { log: log.child({ component: 'reconciliation' }) }).start();

  const app = await buildApp({ config, database, logger: log });
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  log.info({ address, database: database.location, environment: config.APP_ENV }, 'listening');
  printBanner(config, address, database, demoCredentials);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      log.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS);
    force.unref();
    await app.close();
    // A reconciliation still running gets part of the grace period; if it cannot finish, its transaction rolls
    // back and the job is retried by the next instance to start.
    await jobQueue.stop(config.SHUTDOWN_GRACE_MS / 2);
    await database.close();
    log.info('stopped');
    process.exit(0);
  };
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

function printBanner(config: Config, address: string, database: Database, credentials: DemoPartnerCredential[] | null) {
  const base = `${config.PUBLIC_BASE_URL ?? address.replace('[::1]', 'localhost')}${config.BASE_PATH}`;
  const lines = ['', `Fundraiser partner API (${config.APP_ENV}) on ${base} — ${database.location}`, `OpenAPI: ${base}/openapi.json`];
  if (credentials) {
    lines.push('', 'Sandbox demo data loaded. Demo partner credentials (shown once; only hashes are stored):');
    for (const c of credentials) lines.push(`  ${c.partner} [${c.channel}]  client_id=${c.clientId}  client_secret=${c.clientSecret}`);
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
  if (err instanceof ConfigError || err instanceof DataDirectoryInUseError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  process.exit(1);
});
