import { Type } from '@sinclair/typebox';
import { listMigrations, pendingMigrations } from '../../../infrastructure/db/migrate.js';
import { withTimeout } from '../../../infrastructure/db/with-timeout.js';
import type { App } from '../../route-context.js';
import { ErrorEnvelope, StringEnum } from '../../../contract/common.js';
import { errorResponses, ResponseHeaders, successResponse } from '../../schemas/responses.js';
import { hostServers, type OperationsDeps } from './context.js';

const CHECK_TIMEOUT_MS = 2000;

const Liveness = Type.Object({ status: StringEnum(['UP']) });
const Check = StringEnum(['UP', 'DOWN', 'NOT_CONFIGURED']);
const Readiness = Type.Object({
  status: StringEnum(['UP', 'DOWN']),
  checks: Type.Object({ database: Check, migrations: Check, redis: Check, accepting: Check }),
});

const readyExample = (status: 'UP' | 'DOWN') => ({
  status,
  checks: { database: status, migrations: status, redis: 'NOT_CONFIGURED', accepting: 'UP' },
});

/**
 * GET /livez and GET /readyz, outside the base path and without credentials, for load balancers and
 * orchestrators. Liveness says only that the process answers (restart it if not); readiness says whether this
 * instance can serve: database reachable, every migration applied, Redis reachable when configured.
 */
export default async function probesRoutes(app: App, deps: OperationsDeps) {
  livenessRoute(app, deps);
  readinessRoute(app, deps);
}

function livenessRoute(app: App, { config }: OperationsDeps) {
  app.get(
    '/livez',
    {
      schema: {
        operationId: 'getLiveness',
        tags: ['operations'],
        summary: 'Liveness probe',
        description: 'The process is up and answering. No credentials, no database call.',
        servers: hostServers(config),
        response: {
          200: successResponse(Liveness, 'The process answers.', { status: 'UP' }),
          ...wrongMethod('/livez'),
        },
      },
      config: { public: true, envelopeMethod: '/livez' },
    },
    async () => ({ status: 'UP' as const }),
  );
}

function readinessRoute(app: App, { config, database, redisPing, lifecycle }: OperationsDeps) {
  const known = listMigrations();
  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['operations'],
        summary: 'Readiness probe',
        description:
          'UP when the database answers, every migration is applied and Redis (when configured) answers, each ' +
          'within 2 s, and the instance is not shutting down (accepting). Otherwise 503 DOWN with the failing ' +
          'check: take the instance out of the load balancer.',
        servers: hostServers(config),
        response: {
          200: successResponse(Readiness, 'This instance can serve requests.', readyExample('UP')),
          503: successResponse(
            Type.Union([Readiness, Type.Ref(ErrorEnvelope)]),
            'A dependency is down or a migration is pending: status DOWN names it.',
            readyExample('DOWN'),
            ResponseHeaders.retryAfter,
          ),
          ...wrongMethod('/readyz'),
        },
      },
      config: { public: true, envelopeMethod: '/readyz' },
    },
    async (request, reply) => {
      const databaseUp = await passes(database.ping(CHECK_TIMEOUT_MS));
      const migrationsUp = databaseUp && (await passes(migrationsCurrent(database, known)));
      const redis = redisPing ? ((await passes(redisPing())) ? 'UP' : 'DOWN') : 'NOT_CONFIGURED';
      const checks = {
        database: databaseUp ? 'UP' : 'DOWN',
        migrations: migrationsUp ? 'UP' : 'DOWN',
        redis,
        accepting: lifecycle?.stopping ? 'DOWN' : 'UP',
      } as const;
      const up = databaseUp && migrationsUp && redis !== 'DOWN' && checks.accepting === 'UP';
      if (!up) {
        request.log.warn({ checks }, 'readiness: not ready');
        reply.header('retry-after', '5');
      }
      return reply.code(up ? 200 : 503).send({ status: up ? 'UP' : 'DOWN', checks });
    },
  );
}

/** Throws unless every migration this code knows is applied. */
async function migrationsCurrent(database: OperationsDeps['database'], known: ReturnType<typeof listMigrations>) {
  if ((await pendingMigrations(database, known)).length > 0) throw new Error('migrations pending');
}

/** The one refusal a probe can answer: another method than GET (a probe takes no input and no credentials). */
const wrongMethod = (method: string) => ({ 405: errorResponses(method, 'METHOD_NOT_ALLOWED')[405]! });

const passes = (check: Promise<unknown>) =>
  withTimeout(check, CHECK_TIMEOUT_MS).then(
    () => true,
    () => false,
  );
