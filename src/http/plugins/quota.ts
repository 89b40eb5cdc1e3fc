import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../api-errors.js';
import type { QuotaCount, QuotaStore } from '../../infrastructure/quota/quota-store.js';

/**
 * Per-partner request quota (section 8, docs/decisions/0026-per-partner-quotas-in-a-shared-store.md), after channel
 * permission and before validation (docs/decisions/0003-order-of-checks-and-one-error-envelope.md): a fixed window
 * per partner, counted in the quota store (shared by every instance, or this process on the embedded database).
 * Every counted answer carries X-RateLimit-Limit/Remaining/Reset; past the limit, 429 with Retry-After.
 *
 * A callback hook of our own rather than @fastify/rate-limit, which this replaced: that plugin awaited five promises
 * per request (key, allow list, limit, window, store) in an async hook, a tenth of GET /ping's CPU, for features
 * the quota never used (bans, per-route limits, address keys). The store answers at once when it can.
 */
export const quotaPlugin = fp<{ store: QuotaStore }>(
  async (app: FastifyInstance, { store }) => {
    app.addHook('preValidation', (request, reply, done) => {
      // Public routes (the docs, the probes) have no principal and no quota.
      const principal = request.principal;
      if (principal === null) return done();
      const { quotaLimit: limit, quotaWindowSeconds: windowSeconds } = principal;
      store.incr(
        principal.partnerId,
        (count) => {
          const refusal = answerQuota(reply, limit, windowSeconds, count);
          if (refusal) done(refusal);
          else done();
        },
        windowSeconds * 1000,
        limit,
      );
    });
  },
  { name: 'quota', dependencies: ['channel-access'] },
);

/** Sets the quota headers of a counted request; the refusal when the count is past the limit. */
function answerQuota(
  reply: FastifyReply,
  limit: number,
  windowSeconds: number,
  { current, ttl }: QuotaCount,
): ApiError | null {
  const resetSeconds = Math.ceil(ttl / 1000);
  const exceeded = current > limit;
  reply.header('x-ratelimit-limit', limit);
  reply.header('x-ratelimit-remaining', exceeded ? 0 : limit - current);
  reply.header('x-ratelimit-reset', resetSeconds);
  if (!exceeded) return null;
  const retry = `${resetSeconds} second${resetSeconds === 1 ? '' : 's'}`;
  return new ApiError('RATE_LIMIT', `Quota of ${limit} requests per ${windowSeconds} s exhausted; retry in ${retry}`, {
    'retry-after': String(resetSeconds),
  });
}
