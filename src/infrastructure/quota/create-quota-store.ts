import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/index.js';
import type { Database } from '../db/connect.js';
import { postgresQuotaCounter, redisQuotaCounter } from './counters.js';
import { ProcessQuotaStore } from './process-quota-store.js';
import { SharedQuotaStore, type QuotaStore } from './quota-store.js';

/**
 * The quota store the configuration asks for: Redis when REDIS_URL is set, otherwise the service's PostgreSQL; on
 * the embedded database, which only one process can open, this process.
 */
export async function createQuotaStore(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
): Promise<{ store: QuotaStore; close(): Promise<void>; ping?: () => Promise<void> }> {
  if (!config.REDIS_URL && database.kind === 'embedded') {
    const store = new ProcessQuotaStore();
    return { store, close: async () => store.stop() };
  }
  // Loaded only when configured: the client library is ~5 MB of resident memory a deployment without Redis
  // would carry for nothing.
  const redis = config.REDIS_URL
    ? new (await import('ioredis')).Redis(config.REDIS_URL, {
        connectTimeout: 1000,
        commandTimeout: config.QUOTA_STORE_TIMEOUT_MS,
        // Fail at once while disconnected (the breaker falls back) instead of queueing behind the reconnection.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        // Reconnect quickly and keep trying, so counting is shared again within seconds of Redis's return.
        retryStrategy: (times) => Math.min(times * 100, 1000),
      })
    : undefined;
  // ioredis reports every failed reconnection: the breaker's transitions below are what an operator needs.
  redis?.on('error', () => undefined);
  // Without an offline queue, checks made before the first connection would fail: give it a moment. A Redis that is
  // down at start-up is no reason not to start; the breaker takes over.
  if (redis) await readyWithin(redis, 1500);
  const counter = redis ? redisQuotaCounter(redis) : postgresQuotaCounter(database.db);
  const store = new SharedQuotaStore(counter, {
    // PostgreSQL is the database every request needs anyway: a slow check is load (waiting for the pool), not an
    // outage, and must not split the quota per instance; its connect and statement timeouts bound the wait.
    timeoutMs: redis ? config.QUOTA_STORE_TIMEOUT_MS : false,
    retryAfterMs: config.QUOTA_STORE_RETRY_MS,
    fallbackDivisor: config.QUOTA_FALLBACK_DIVISOR,
    onModeChange: (mode, { backend }) =>
      mode === 'fallback'
        ? log.warn(
            { backend, fallbackDivisor: config.QUOTA_FALLBACK_DIVISOR },
            'quota store unavailable: counting quotas per instance until it is back',
          )
        : log.info({ backend }, 'quota store back: counting quotas across instances again'),
  });
  return {
    store,
    // For the readiness probe: Redis, when configured, answers a PING within the command timeout.
    ping: redis ? async () => void (await redis.ping()) : undefined,
    async close() {
      store.stop();
      redis?.disconnect();
    },
  };
}

function readyWithin(redis: { once(event: 'ready', listener: () => void): unknown }, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
