import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { DB } from '../db/schema.js';
import { incrementQuotaCounter } from '../repositories/quota-counters.js';
import { coalesceIncrements } from './coalesce-increments.js';

/** Where the shared quota counts live: counts one request in a window and returns the total of all instances. */
export interface QuotaCounter {
  readonly backend: 'postgres' | 'redis';
  increment(key: string, windowStart: number, windowMs: number): Promise<number>;
}

export function postgresQuotaCounter(db: Kysely<DB>): QuotaCounter {
  return {
    backend: 'postgres',
    // Every request of a partner updates one row: concurrent checks share a statement rather than queue on its lock.
    increment: coalesceIncrements((key, windowStart, _windowMs, requests) =>
      incrementQuotaCounter(db, key, new Date(windowStart), requests),
    ),
  };
}

// INCR and the expiry of a new window in one round trip, atomically.
const INCREMENT_SCRIPT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return c`;

type WithIncrement = Redis & { quotaIncrement(key: string, ttlMs: number): Promise<number> };

export function redisQuotaCounter(redis: Redis, nameSpace = 'fundraiser-quota:'): QuotaCounter {
  // A defined command is sent by its SHA once the server knows the script.
  redis.defineCommand('quotaIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
  const client = redis as WithIncrement;
  return {
    backend: 'redis',
    async increment(key, windowStart, windowMs) {
      return Number(await client.quotaIncrement(`${nameSpace}${key}:${windowStart}`, windowMs + 1000));
    },
  };
}
