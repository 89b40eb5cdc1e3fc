import type { Insertable, Kysely } from 'kysely';
import type { DB, Mandate, MandatesTable } from '../db/schema.js';
import type { SetupIntent } from '../payments/provider.js';

/**
 * Records a mandate. The provider returns the same intent for the same idempotency key, and the key is unique to
 * one mandate request, so an intent already recorded is that request's own earlier attempt: nothing to add.
 */
export async function insertMandate(db: Kysely<DB>, mandate: Insertable<MandatesTable>): Promise<void> {
  await insertMandates(db, [mandate]);
}

/** Several new mandates in one statement (group commit); each id is the provider's, so a repeat is the same one. */
export async function insertMandates(db: Kysely<DB>, mandates: Insertable<MandatesTable>[]): Promise<void> {
  await db
    .insertInto('mandates')
    .values(mandates)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** A mandate as its owner sees it: other partners' and other environments' mandates do not exist for them. */
export async function findOwnMandate(
  db: Kysely<DB>,
  scope: { partnerId: string; environment: string },
  id: string,
): Promise<Mandate | undefined> {
  return db
    .selectFrom('mandates')
    .selectAll()
    .where('id', '=', id)
    .where('partner_id', '=', scope.partnerId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
}

/** A mandate row-locked until the transaction ends, so concurrent changes of its status are seen one by one. */
export async function lockMandate(trx: Kysely<DB>, id: string): Promise<Mandate | undefined> {
  return trx.selectFrom('mandates').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * Copies the provider's view of the setup intent onto our record; `eventCreated` is the provider event's creation
 * time (epoch seconds) when a webhook brought it, kept for the ordering guard.
 */
export async function updateMandateFromIntent(
  db: Kysely<DB>,
  intent: SetupIntent,
  eventCreated?: number,
): Promise<Mandate> {
  return db
    .updateTable('mandates')
    .set({
      status: intent.status,
      accepted_at: intent.mandate?.acceptedAt ?? null,
      payment_method: intent.mandate?.paymentMethod ?? null,
      url: intent.mandate?.url ?? null,
      ...(intent.providerMandate
        ? { provider_mandate_id: intent.providerMandate.id, mandate_status: intent.providerMandate.status }
        : {}),
      ...(eventCreated === undefined ? {} : { intent_event_created: eventCreated }),
      updated_at: new Date(),
    })
    .where('id', '=', intent.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The mandate a Stripe Mandate object belongs to, if any of ours. */
export async function findByProviderMandate(db: Kysely<DB>, providerMandateId: string): Promise<Mandate | undefined> {
  return db.selectFrom('mandates').selectAll().where('provider_mandate_id', '=', providerMandateId).executeTakeFirst();
}

/** A provider mandate's status change (active, inactive), with the event's creation time for the ordering guard. */
export async function updateProviderMandateStatus(
  db: Kysely<DB>,
  id: string,
  status: string,
  eventCreated: number,
): Promise<Mandate> {
  return db
    .updateTable('mandates')
    .set({ mandate_status: status, mandate_event_created: eventCreated, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Records a provider event as handled; false when it was already (a replay). */
export async function recordProviderEvent(
  db: Kysely<DB>,
  event: { id: string; type: string; created: number },
): Promise<boolean> {
  const inserted = await db
    .insertInto('stripe_events')
    .values(event)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function isProviderEventRecorded(db: Kysely<DB>, id: string): Promise<boolean> {
  const row = await db.selectFrom('stripe_events').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Whether a mandate with this id (its provider setup intent's id) is recorded. */
export async function mandateExists(db: Kysely<DB>, id: string): Promise<boolean> {
  return Boolean(await db.selectFrom('mandates').select('id').where('id', '=', id).executeTakeFirst());
}

export function findMandate(db: Kysely<DB>, id: string): Promise<Mandate | undefined> {
  return db.selectFrom('mandates').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Keeps what the provider needs to debit the mandate (Stripe's customer and payment method). */
export async function setDebitDetails(
  db: Kysely<DB>,
  id: string,
  details: { customerId: string | null; paymentMethodId: string | null },
): Promise<void> {
  await db
    .updateTable('mandates')
    .set({ provider_customer_id: details.customerId, provider_payment_method_id: details.paymentMethodId })
    .where('id', '=', id)
    .execute();
}
