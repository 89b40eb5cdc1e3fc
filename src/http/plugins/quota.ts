import type { FastifyInstance } from 'fastify';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { ApiError } from '../../errors.js';
import type { QuotaStore } from '../../infrastructure/quota/quota-store.js';

/**
 * Per-partner request quota (section 8), after channel permission and before validation (DESIGN.md §2).
 * @fastify/rate-limit supplies the algorithm's edges and the X-RateLimit-* / Retry-After headers; the counts live
 * in the shared store so that several instances enforce one quota.
 */
export const quotaPlugin = fp<{ store: QuotaStore }>(
  async (app: FastifyInstance, { store }) => {
    // The shared store (PostgreSQL or Redis, with its per-instance fallback) counts, so instances enforce one quota;
    // on the embedded database, which one process owns, that process counts.
    const counting: Partial<RateLimitPluginOptions> = {
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
      // Plain functions: the plugin awaits them either way, and an async one would cost a promise per request.
      max: (request) => request.principal?.quotaLimit ?? 1,
      timeWindow: (request) => (request.principal?.quotaWindowSeconds ?? 60) * 1000,
      errorResponseBuilder: (request, context) =>
        new ApiError(
          'RATE_LIMIT',
          `Quota of ${context.max} requests per ${request.principal?.quotaWindowSeconds ?? 60} s exhausted; retry in ${context.after}`,
        ),
    });
  },
  { name: 'quota', dependencies: ['channel-access'] },
);
