import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { DB } from '../db/schema.js';
import { incrementQuotaCounter } from '../repositories/quota-counters.js';

/**
 * Where the shared quota counts live: adds `requests` to a window's count and returns the total of all instances.
 * The quota store claims tokens ahead and adds up the checks that arrive together (token-leases.ts).
 */
export interface QuotaCounter {
  readonly backend: 'postgres' | 'redis';
  incrementBy(key: string, windowStart: number, windowMs: number, requests: number): Promise<number>;
}

export function postgresQuotaCounter(db: Kysely<DB>): QuotaCounter {
  return {
    backend: 'postgres',
    incrementBy: (key, windowStart, _windowMs, requests) =>
      incrementQuotaCounter(db, key, new Date(windowStart), requests),
  };
}

// INCRBY and the expiry of a new window in one round trip, atomically.
const INCREMENT_SCRIPT = `local c = redis.call('INCRBY', KEYS[1], ARGV[2])
if c == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return c`;

type WithIncrement = Redis & { quotaIncrement(key: string, ttlMs: number, requests: number): Promise<number> };

export function redisQuotaCounter(redis: Redis, nameSpace = 'fundraiser-quota:'): QuotaCounter {
  // A defined command is sent by its SHA once the server knows the script.
  redis.defineCommand('quotaIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
  const client = redis as WithIncrement;
  return {
    backend: 'redis',
    async incrementBy(key, windowStart, windowMs, requests) {
      return Number(await client.quotaIncrement(`${nameSpace}${key}:${windowStart}`, windowMs + 1000, requests));
    },
  };
}
