import { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import { isProduction } from './config.js';
import type { Database } from './infrastructure/db/connect.js';
import type { PaymentProvider } from './infrastructure/payments/provider.js';
import { PaymentSimulator } from './infrastructure/payments/simulator.js';
import { SharedQuotaStore } from './infrastructure/quota-store.js';
import { findCredential, touchCredential } from './infrastructure/repositories/credentials.js';
import { listChannels } from './infrastructure/repositories/channels.js';
import { registerErrorHandling } from './http/error-handler.js';
import { loggerOptions } from './http/logging.js';
import { authenticatePlugin } from './http/plugins/authenticate.js';
import { channelAccessPlugin } from './http/plugins/channel-access.js';
import { correlationIdPlugin } from './http/plugins/correlation-id.js';
import { openApiPlugin } from './http/plugins/openapi.js';
import { quotaPlugin } from './http/plugins/quota.js';
import type { App, RouteDeps } from './http/route-context.js';
import { routes } from './http/routes/index.js';
import { customFormats } from './http/schemas/formats.js';
import { ErrorEnvelope } from './http/schemas/common.js';
import type { OnBatchStored } from './services/accept-remittances.js';
import { ChannelDirectory } from './services/channel-directory.js';
import { CredentialVerifier } from './services/credential-verifier.js';
import { enqueueReconciliation } from './services/reconciliation/enqueue.js';
import './http/types.js';

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
}

/** A successful request slower than this is still worth a line at info. */
const SLOW_REQUEST_MS = 1000;

/**
 * One access-log line per request instead of Fastify's two ('incoming request', then 'request completed'), at
 * `info` for failures (status >= 400) and slow requests, at `debug` for the rest: at the default level a
 * successful request writes no log line. Logging each one cost ~25% of the CPU of GET /ping (bench, with the line
 * already unredacted, below); every refusal and error is still logged, by the error handler and here, and
 * LOG_LEVEL=debug brings back a line for every request. Failed responses keep their 'request errored' line.
 *
 * The line goes through `unredacted`, a child of the application's logger without redaction: none of its fields
 * is ever at a redacted path (no headers, no bodies), and pino's redaction costs ~6 µs per line whatever the
 * fields. Every other line, 'request errored' included, stays redacted.
 */
class AccessLog extends LogController {
  unredacted: FastifyBaseLogger | null = null;

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const responseTime = reply.elapsedTime;
    if (error) return reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request errored');
    const log = this.unredacted ?? reply.log;
    const line = { reqId: request.id, req: request, res: reply, responseTime };
    if (reply.statusCode >= 400 || responseTime >= SLOW_REQUEST_MS) log.info(line, 'request completed');
    else log.debug(line, 'request completed');
  }
}

/** Builds the HTTP application without listening, so tests inject requests and the server entry point listens. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database } = deps;
  const now = deps.now ?? (() => new Date());
  const accessLog = new AccessLog();
  const app = Fastify({
    ...(deps.logger === false ? { logger: false } : deps.logger ? { loggerInstance: deps.logger } : { logger: loggerOptions(config.LOG_LEVEL) }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    requestIdHeader: 'x-correlation-id',
    logController: accessLog,
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false, formats: customFormats } },
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  accessLog.unredacted = app.log.child({}, { redact: { paths: [] } });

  // Only JSON is accepted (section 1.1); Fastify's text/plain parser would let other bodies through.
  app.removeContentTypeParser('text/plain');

  const simulator = isProduction(config) ? null : new PaymentSimulator(database.db, {
    mandateUrl: (id) => `${config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`}${config.BASE_PATH}/sandbox/mandate-confirmations/${id}`,
    now,
  });
  const payments = deps.payments ?? simulator;
  if (!payments) throw new Error('In production a payment provider must be configured; the simulator exists only outside production.');

  const verifier = new CredentialVerifier({
    environment: config.APP_ENV,
    cacheTtlMs: config.CREDENTIAL_CACHE_TTL_SECONDS * 1000,
    now,
    load: (clientId) => findCredential(database.db, clientId),
    touch: (clientId, at) => touchCredential(database.db, clientId, at),
    onTouchError: (err) => app.log.warn({ err }, 'could not record credential use'),
  });
  const quotaStore = new SharedQuotaStore(database.db, {
    syncIntervalMs: config.QUOTA_SYNC_INTERVAL_MS,
    onSyncError: (err) => app.log.warn({ err: (err as Error).message }, 'quota counts not synchronised yet'),
  });
  // Loaded only when configured: the client library is ~5 MB of resident memory a deployment without Redis
  // would carry for nothing.
  const redis = config.REDIS_URL ? new (await import('ioredis')).Redis(config.REDIS_URL, { connectTimeout: 1000, maxRetriesPerRequest: 1 }) : undefined;
  redis?.on('error', (err) => app.log.warn({ err: err.message }, 'quota store (Redis) unavailable'));
  if (!redis) quotaStore.start();
  app.addHook('onClose', async () => {
    await quotaStore.stop().catch(() => undefined);
    redis?.disconnect();
  });
  app.decorate('quotaStore', quotaStore);
  app.decorate('credentialVerifier', verifier);

  app.addSchema(ErrorEnvelope);
  registerErrorHandling(app);
  await app.register(correlationIdPlugin);
  await app.register(authenticatePlugin, { verifier, requireBasic: config.REQUIRE_BASIC_AUTH });
  await app.register(channelAccessPlugin, { channels: new ChannelDirectory(() => listChannels(database.db)) });
  await app.register(quotaPlugin, { store: quotaStore, redis });
  await app.register(openApiPlugin, { config });

  // Each stored batch gets its reconciliation job in the same transaction (DESIGN.md §12): no batch without a job.
  const onRemittanceBatchStored = deps.onRemittanceBatchStored ?? enqueueReconciliation;

  const routeDeps: RouteDeps = { config, database, db: database.db, payments, simulator, onRemittanceBatchStored };
  await app.register(async (scoped) => {
    for (const route of routes) await route(scoped as unknown as App, routeDeps);
    scoped.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
  }, { prefix: config.BASE_PATH });
  return app as unknown as App;
}

declare module 'fastify' {
  interface FastifyInstance {
    quotaStore: SharedQuotaStore;
    credentialVerifier: CredentialVerifier;
  }
}
