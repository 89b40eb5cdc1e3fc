import type { Kysely, Selectable } from 'kysely';
import type { DB, IdempotencyKeysTable } from '../db/schema.js';

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;

export interface IdempotencyClaim {
  partnerId: string;
  key: string;
  operation: string;
  requestHash: string;
}

/** Claims the key for a request; false when another request holds it (the caller then replays or refuses). */
export async function claimIdempotencyKey(db: Kysely<DB>, claim: IdempotencyClaim): Promise<boolean> {
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({
      partner_id: claim.partnerId,
      key: claim.key,
      operation: claim.operation,
      request_hash: claim.requestHash,
      response_status: null,
      response_body: null,
    })
    .onConflict((oc) => oc.columns(['partner_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Stores the response a claimed key replays. */
export async function storeIdempotentResponse(
  db: Kysely<DB>,
  partnerId: string,
  key: string,
  response: { status: number; body: unknown },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ response_status: response.status, response_body: JSON.stringify(response.body) })
    .where('partner_id', '=', partnerId)
    .where('key', '=', key)
    .execute();
}

export async function findIdempotencyKey(
  db: Kysely<DB>,
  partnerId: string,
  key: string,
): Promise<IdempotencyKeyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .where('key', '=', key)
    .executeTakeFirst();
}
