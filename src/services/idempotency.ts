import type { Kysely, Transaction } from 'kysely';
import { ApiError } from '../errors.js';
import type { DB } from '../infrastructure/db/schema.js';

export interface StoredResponse<T> {
  status: number;
  items: T;
  replayed: boolean;
}

export interface IdempotencyScope {
  partnerId: string;
  /** The Idempotency-Key header, if the partner sent one. */
  key: string | undefined;
  operation: string;
  requestHash: string;
}

/**
 * Runs `operation` in a transaction. With an Idempotency-Key, the key is claimed in that same transaction and the
 * response stored with it, so a retry (even a concurrent one: the database makes it wait on the key) replays the
 * first response; the same key with another body or on another operation is 409.
 */
export async function idempotent<T>(
  db: Kysely<DB>,
  scope: IdempotencyScope,
  operation: (trx: Transaction<DB>) => Promise<{ status: number; items: T; replayed?: boolean }>,
): Promise<StoredResponse<T>> {
  return db.transaction().execute(async (trx) => {
    if (scope.key !== undefined) {
      const claimed = await trx
        .insertInto('idempotency_keys')
        .values({ partner_id: scope.partnerId, key: scope.key, operation: scope.operation, request_hash: scope.requestHash, response_status: null, response_body: null })
        .onConflict((oc) => oc.columns(['partner_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (!claimed) return replay<T>(trx, { ...scope, key: scope.key });
    }
    const result = await operation(trx);
    if (scope.key !== undefined) {
      await trx
        .updateTable('idempotency_keys')
        .set({ response_status: result.status, response_body: JSON.stringify(result.items) })
        .where('partner_id', '=', scope.partnerId)
        .where('key', '=', scope.key)
        .execute();
    }
    return { status: result.status, items: result.items, replayed: result.replayed ?? false };
  });
}

async function replay<T>(trx: Transaction<DB>, scope: IdempotencyScope & { key: string }): Promise<StoredResponse<T>> {
  const stored = await trx
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('partner_id', '=', scope.partnerId)
    .where('key', '=', scope.key)
    .executeTakeFirstOrThrow();
  if (stored.operation !== scope.operation || stored.request_hash !== scope.requestHash) {
    throw new ApiError('CONFLICT', `Idempotency-Key ${JSON.stringify(scope.key)} was already used with a different request`);
  }
  return { status: stored.response_status ?? 200, items: stored.response_body as T, replayed: true };
}
