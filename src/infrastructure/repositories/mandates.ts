import type { Insertable, Kysely } from 'kysely';
import type { DB, Mandate, MandatesTable } from '../db/schema.js';
import type { SetupIntent } from '../payments/provider.js';

export async function insertMandate(db: Kysely<DB>, mandate: Insertable<MandatesTable>): Promise<void> {
  await db.insertInto('mandates').values(mandate).execute();
}

/** A mandate as its owner sees it: other partners' and other environments' mandates do not exist for them. */
export async function findOwnMandate(db: Kysely<DB>, scope: { partnerId: string; environment: string }, id: string): Promise<Mandate | undefined> {
  return db
    .selectFrom('mandates')
    .selectAll()
    .where('id', '=', id)
    .where('partner_id', '=', scope.partnerId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
}

/** Copies the provider's view of the setup intent onto our record. */
export async function updateMandateFromIntent(db: Kysely<DB>, intent: SetupIntent): Promise<Mandate> {
  return db
    .updateTable('mandates')
    .set({
      status: intent.status,
      accepted_at: intent.mandate?.acceptedAt ?? null,
      payment_method: intent.mandate?.paymentMethod ?? null,
      url: intent.mandate?.url ?? null,
      updated_at: new Date(),
    })
    .where('id', '=', intent.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
