import { randomUUID } from 'node:crypto';
import { type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { createQuotaStore } from './infrastructure/quota/create-quota-store.js';
import type { QuotaStore } from './infrastructure/quota/quota-store.js';
import { registerErrorHandling, sendError, toApiError } from './http/error-handler.js';
import { clientErrorHandler, limitConnections, routeTable, serverOptions } from './http/transport.js';
import { checkTextOfEveryRoute } from './http/schemas/checks.js';
import { validatorOptions } from './http/schemas/validator-options.js';
import { convertIntegerQueriesOfEveryRoute } from './http/query-integers.js';
import { registerQueueGauges } from './services/queues/queue-gauges.js';
import { registerPrivacyGauges } from './services/privacy/privacy-gauges.js';
import { retentionPolicy } from './config/privacy.js';
import { registerRecurringGauges } from './services/recurring/recurring-gauges.js';
import { registerConsole } from './console/register.js';
import { registerPortal } from './portal/register.js';
import { AccessLog } from './http/access-log.js';
import { bindRequestLog, createLogger, requestLoggerFactory } from './http/logging.js';
import { corsAllowedOrigins, hstsEnabled, trustedProxies } from './config/security.js';
import { protectiveHeaders, securityHeadersPlugin } from './http/plugins/security-headers.js';
import { authenticatePlugin } from './http/plugins/authenticate.js';
import { channelAccessPlugin } from './http/plugins/channel-access.js';
import { correlationIdPlugin } from './http/plugins/correlation-id.js';
import { openApiPlugin } from './http/plugins/openapi.js';
import { deprecationHeadersPlugin } from './http/plugins/deprecation-headers.js';
import { announcedDeprecations } from './services/operators/deprecations.js';
import { quotaPlugin } from './http/plugins/quota.js';
import type { App } from './http/route-context.js';
import { customFormats } from './http/schemas/formats.js';
import { cachingSerializerFactory } from './http/schemas/compiler-cache.js';
import { ErrorEnvelope } from './contract/common.js';
import { channelDirectoryOn } from './services/channel-directory.js';
import { credentialVerifierOn, type CredentialVerifier } from './services/credential-verifier.js';
import { authThrottle } from './http/auth-throttle.js';
import { rejectionCounterOn } from './services/rejection-counter.js';
import { databaseGauges } from './infrastructure/metrics/database-gauges.js';
import { createMetrics } from './infrastructure/metrics/metrics.js';
import { paymentsFor, type StripeIntegration } from './infrastructure/payments/select-provider.js';
import { metricsPlugin } from './http/plugins/metrics.js';
import { routeOf } from './http/route-of.js';
import { operationsRoutes } from './http/routes/platform/index.js';
import { registerRoutes } from './http/partner-routes.js';
import './http/types.js';
import type { AppDeps } from './http/app-deps.js';

export type { AppDeps };

/** How often each instance adds its counts of refused calls to the shared table. */
const REJECTION_FLUSH_MS = 5000;

/** Builds the HTTP application without listening, so tests inject requests and the server entry point listens. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const now = deps.now ?? (() => new Date());
  const app = createFastify(deps);
  const { simulator, payments, stripe } = choosePayments(deps, now);
  const { verifier, quotaStore } = await addRequestAccounting(app, deps, now);
  const metrics = await registerPlugins(app, deps, { verifier, quotaStore, stripe });
  await registerRoutes(app, deps, { payments, simulator, metrics });
  await registerConsole(app, deps, now);
  await registerPortal(app, deps, now, { payments, simulator });
  return app;
}

/** The Fastify instance with its server options, request ids, validator and one access-log line per request. */
function createFastify(deps: AppDeps): App {
  const { config } = deps;
  const hsts = hstsEnabled(config);
  const accessLog = new AccessLog();
  const app = Fastify({
    ...(deps.logger === false
      ? { logger: false }
      : deps.logger
        ? { loggerInstance: deps.logger }
        : { loggerInstance: createLogger(config.LOG_LEVEL) }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    // The log lines' reqId is the correlation id when it is a UUID; anything else a caller sent there is their input
    // (it could be anything, an email) and is replaced, as the correlation-id plugin does for the envelope.
    requestIdHeader: false,
    genReqId: (req) => {
      const header = req.headers['x-correlation-id'];
      const value = Array.isArray(header) ? header[0] : header;
      return value && customFormats.uuid(value) ? value : randomUUID();
    },
    logController: accessLog,
    childLoggerFactory: requestLoggerFactory,
    schemaController: { compilersFactory: { buildSerializer: cachingSerializerFactory } },
    ajv: validatorOptions(config),
    routerOptions: { ignoreTrailingSlash: true },
    // request.ip is the client's address: X-Forwarded-For is read only from the proxies TRUST_PROXY names.
    trustProxy: trustedProxies(config),
    // While shutting down, requests that still arrive on open connections are answered (with Connection: close),
    // not refused with 503: the client sent them before it could know.
    return503OnClosing: false,
    ...serverOptions(config),
    clientErrorHandler: clientErrorHandler(config),
    frameworkErrors: (error, request, reply) => {
      // Answered before any hook runs: the protective headers are set here.
      for (const [name, value] of protectiveHeaders(hsts)) reply.header(name, value);
      void sendError(request, reply, toApiError(error));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  limitConnections(app.server, config);

  accessLog.unredacted = app.log.child({}, { redact: { paths: [] } });

  // Only JSON is accepted (section 1.1); Fastify's text/plain parser would let other bodies through.
  app.removeContentTypeParser('text/plain');
  return app;
}

/** The sandbox simulator outside production, and the payment provider PAYMENT_PROVIDER selects (or the deps'). */
function choosePayments(deps: AppDeps, now: () => Date) {
  return paymentsFor(deps.config, deps.database.db, now, deps.payments);
}

/**
 * The credential verifier, the quota store, the count of refused calls and the drain header: what every request
 * is checked against or counted in.
 */
async function addRequestAccounting(app: App, deps: AppDeps, now: () => Date) {
  const { config, database } = deps;
  const verifier = credentialVerifierOn(database.db, {
    environment: config.APP_ENV,
    cacheTtlMs: config.CREDENTIAL_CACHE_TTL_SECONDS * 1000,
    now,
    onTouchError: (err) => app.log.warn({ err }, 'could not record credential use'),
  });
  const quotaStore = await createQuotaStore(config, database, app.log);
  app.addHook('onClose', () => quotaStore.close());
  app.decorate('quotaStore', quotaStore.store);
  const rejections = rejectionCounterOn(database.db, {
    intervalMs: REJECTION_FLUSH_MS,
    now,
    onError: (err) => app.log.warn({ err: (err as Error).message }, 'refused-call counts not saved yet'),
  });
  rejections.start();
  app.addHook('onClose', () => rejections.stop());
  // Refused partner calls, counted for the console's dashboard (the console's own routes are public here).
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    if ((status === 401 || status === 429) && !routeOf(request).config?.public)
      rejections.record(status === 401 ? 'authentication' : 'quota', request.principal?.partnerId);
    done();
  });
  const lifecycle = deps.lifecycle;
  if (lifecycle)
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (lifecycle.closingConnections) reply.header('connection', 'close');
      done(null, payload);
    });
  app.decorate('credentialVerifier', verifier);

  return { verifier, quotaStore };
}

/** The plugins every route goes through, in the order their hooks run, then metrics and the operations routes. */
async function registerPlugins(
  app: App,
  deps: AppDeps,
  {
    verifier,
    quotaStore,
    stripe,
  }: {
    verifier: CredentialVerifier;
    quotaStore: Awaited<ReturnType<typeof createQuotaStore>>;
    stripe: StripeIntegration | null;
  },
) {
  const { config, database } = deps;
  const hsts = hstsEnabled(config);
  // The request's logger, then the protective headers: first of all hooks, so that every response carries them,
  // even one an early hook refuses.
  bindRequestLog(app);
  await app.register(securityHeadersPlugin, { hsts, corsAllowedOrigins: corsAllowedOrigins(config) });
  app.addSchema(ErrorEnvelope);
  const allowedMethods = routeTable(app, config);
  checkTextOfEveryRoute(app);
  convertIntegerQueriesOfEveryRoute(app);
  registerErrorHandling(app, { drainLimitBytes: config.BODY_DRAIN_LIMIT_BYTES, allowedMethods });
  // Metrics of this app only (a registry per app): two apps in one process must not share counters.
  const metrics = createMetrics({
    collectors: [
      databaseGauges(database),
      // Depth and age of every background queue, named like the other metrics (no prefix).
      (registry) => registerQueueGauges(registry, database.db, { prefix: '' }),
      // Debits and recurring donations by status (docs/recurring.md).
      (registry) => registerRecurringGauges(registry, database.db),
      (registry) => registerPrivacyGauges(registry, database.db, retentionPolicy(config)),
      ...(deps.metricsCollectors ?? []),
    ],
  });
  await app.register(correlationIdPlugin);
  await app.register(authenticatePlugin, {
    verifier,
    requireBasic: config.REQUIRE_BASIC_AUTH,
    throttle: authThrottle(config, database, app.log, metrics.authenticationLockouts, deps.now),
    failures: metrics.authenticationFailures,
  });
  await app.register(channelAccessPlugin, { channels: channelDirectoryOn(database.db) });
  await app.register(quotaPlugin, { store: quotaStore.store });
  // Announced deprecations: headers on their routes, and `deprecated` in the document built at this start.
  const deprecated = await announcedDeprecations(database.db).catch(() => []);
  await app.register(deprecationHeadersPlugin, {
    basePath: config.BASE_PATH,
    load: () => announcedDeprecations(database.db),
  });
  await app.register(openApiPlugin, { config, deprecated });
  // The routes outside BASE_PATH.
  await app.register(metricsPlugin, { metrics, donationsRoute: `${config.BASE_PATH}/donations` });
  await operationsRoutes(app, {
    config,
    database,
    metrics,
    stripe,
    now: deps.now ?? (() => new Date()),
    redisPing: quotaStore.ping,
    lifecycle: deps.lifecycle,
  });
  return metrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    quotaStore: QuotaStore;
    credentialVerifier: CredentialVerifier;
  }
}
