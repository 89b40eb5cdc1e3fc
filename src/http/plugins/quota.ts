import type { FastifyInstance } from 'fastify';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import fp from 'fastify-plugin';
import { ApiError } from '../../errors.js';
import type { SharedQuotaStore } from '../../infrastructure/quota-store.js';

/**
 * Per-partner request quota (section 8), after channel permission and before validation (DESIGN.md §2).
 * @fastify/rate-limit supplies the algorithm's edges and the X-RateLimit-* / Retry-After headers; the counts live
 * in the shared store so that several instances enforce one quota.
 */
export const quotaPlugin = fp<{ store: SharedQuotaStore; redis?: Redis }>(async (app: FastifyInstance, { store, redis }) => {
  // With Redis, the library's own Redis store counts exactly across instances; if Redis fails, requests go through
  // (a quota outage must not become an API outage). Otherwise our PostgreSQL-synchronised store counts.
  const counting: Partial<RateLimitPluginOptions> = redis
    ? { redis, nameSpace: 'fundraiser-quota:', skipOnError: true }
    : {
        // The library builds its store with `new`; a constructor may hand back an existing object.
        store: function SharedStore() {
          return store;
        } as never,
      };
  await app.register(rateLimit, {
    global: true,
    hook: 'preValidation',
    ...counting,
    keyGenerator: (request) => request.principal?.partnerId ?? 'anonymous',
    allowList: (request) => request.principal === null,
    max: async (request) => request.principal?.quotaLimit ?? 1,
    timeWindow: async (request) => (request.principal?.quotaWindowSeconds ?? 60) * 1000,
    errorResponseBuilder: (request, context) =>
      new ApiError('RATE_LIMIT', `Quota of ${context.max} requests per ${request.principal?.quotaWindowSeconds ?? 60} s exhausted; retry in ${context.after}`),
  });
}, { name: 'quota', dependencies: ['channel-access'] });
