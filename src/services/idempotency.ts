import type { Kysely, Transaction } from 'kysely';
import { ApiError } from '../api-errors.js';
import type { DB } from '../infrastructure/db/schema.js';
import {
  claimIdempotencyKey,
  findIdempotencyKey,
  storeIdempotentResponse,
} from '../infrastructure/repositories/idempotency.js';

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

/** The scope of one partner request: whose it is, its Idempotency-Key (if sent), what it does and with what. */
export function idempotencyScope(
  context: { principal: { partnerId: string }; idempotencyKey: string | undefined },
  operation: string,
  requestHash: string,
): IdempotencyScope {
  return { partnerId: context.principal.partnerId, key: context.idempotencyKey, operation, requestHash };
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
    if (scope.key !== undefined && !(await claimIdempotencyKey(trx, { ...scope, key: scope.key }))) {
      return replay<T>(trx, { ...scope, key: scope.key });
    }
    const result = await operation(trx);
    if (scope.key !== undefined) {
      await storeIdempotentResponse(trx, scope.partnerId, scope.key, { status: result.status, body: result.items });
    }
    return { status: result.status, items: result.items, replayed: result.replayed ?? false };
  });
}

/**
 * The stored response of a finished request under the same key, read before an operation with side effects outside
 * our database (the payment provider) runs again; 409 when the key was used with another body. Null when there is
 * no key, or the first request has not finished (the transaction of `idempotent` then decides).
 */
export async function storedResponse<T>(db: Kysely<DB>, scope: IdempotencyScope): Promise<StoredResponse<T> | null> {
  if (scope.key === undefined) return null;
  const stored = await findIdempotencyKey(db, scope.partnerId, scope.key);
  if (!stored || stored.response_status === null) return null;
  return replay<T>(db, { ...scope, key: scope.key });
}

async function replay<T>(trx: Kysely<DB>, scope: IdempotencyScope & { key: string }): Promise<StoredResponse<T>> {
  const stored = await findIdempotencyKey(trx, scope.partnerId, scope.key);
  if (!stored) throw new Error(`idempotency key ${scope.key} vanished while claimed`);
  if (stored.operation !== scope.operation || stored.request_hash !== scope.requestHash) {
    throw new ApiError(
      'CONFLICT',
      `Idempotency-Key ${JSON.stringify(scope.key)} was already used with a different request`,
    );
  }
  return { status: stored.response_status ?? 200, items: stored.response_body as T, replayed: true };
}
