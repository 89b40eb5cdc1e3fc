import type { MandateRequest } from '../contract/mandate.js';
import { createHash, randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { Principal } from '../domain/principal.js';
import { requestHash } from '../domain/request-hash.js';
import { ApiError } from '../api-errors.js';
import type { DB, Mandate, MandatesTable } from '../infrastructure/db/schema.js';
import { isFinalStatus, type PaymentProvider, type SetupIntent } from '../infrastructure/payments/provider.js';
import {
  findOwnMandate,
  insertMandate,
  lockMandate,
  updateMandateFromIntent,
} from '../infrastructure/repositories/mandates.js';
import { requireEnrolment, type EnrolmentCache } from './enrolment.js';
import { idempotent, storedResponse, idempotencyScope } from './idempotency.js';
import type { RequestContext } from './record-donation.js';
import type { MandateWriter } from './mandate-writer.js';
import { cancelPlansOfMandate } from './recurring/cancel.js';
import { recordEvent } from './webhooks/record-event.js';

/**
 * Creates a direct-debit mandate (section 4.7): a setup intent at the payment provider, recorded against the
 * partner. The response adds `mandateId`, which GET /mandates needs
 * (docs/decisions/0014-mandates-return-their-id-and-follow-setup-intents.md).
 *
 * The provider's idempotency key belongs to our mandate request, never to the correlation id
 * (docs/decisions/0013-mandate-provider-key-is-derived-from-our-request.md): with an Idempotency-Key it is that key
 * scoped to the partner and the body, so a retry reaches the same intent and replays the first answer, and two
 * partners using the same key never meet; without one it is a fresh id of this request, so every request is a new
 * mandate, whatever correlation id it reuses.
 */
export async function createMandate(deps: MandateDeps, request: MandateRequest, context: RequestContext) {
  const { db, enrolments, provider } = deps;
  const { principal } = context;
  const { account } = await requireEnrolment(db, enrolments, request.source.fundraiserId, request.source.channel);
  const hash = requestHash(request);
  const scope = idempotencyScope(context, 'POST /mandates', hash);
  // A retry of a finished request replays without another provider call; another body under the key is 409.
  const earlier = await storedResponse<MandateCreated>(db, scope);
  if (earlier) return earlier;
  const providerKey = providerIdempotencyKey(principal.partnerId, context.idempotencyKey, hash);
  // The provider is called outside our transaction (never hold one across a network call).
  const intent = await provider.createSetupIntent({
    email: request.fundraiser.email,
    name: `${request.fundraiser.firstName} ${request.fundraiser.lastName}`,
    description: `Direct debit mandate for fundraiser ${account.member_number} (${request.source.channel})`,
    // Names our mandate request (its key is stored on the mandate row), the partner and the fundraiser.
    metadata: {
      mandateKey: providerKey,
      partnerId: principal.partnerId,
      partner: principal.partnerName,
      fundraiserId: request.source.fundraiserId,
      memberNumber: account.member_number,
      channel: request.source.channel,
    },
    idempotencyKey: providerKey,
    customer: { partnerId: principal.partnerId, accountId: account.id },
  });
  const row: Insertable<MandatesTable> = {
    id: intent.id,
    partner_id: principal.partnerId,
    environment: principal.environment,
    channel: request.source.channel,
    account_id: account.id,
    fundraiser_id: request.source.fundraiserId,
    fundraiser_first_name: request.fundraiser.firstName,
    fundraiser_last_name: request.fundraiser.lastName,
    fundraiser_email: request.fundraiser.email,
    provider: provider.name,
    status: intent.status,
    accepted_at: null,
    payment_method: null,
    url: null,
    correlation_id: context.correlationId,
    provider_idempotency_key: providerKey,
  };
  const items = { fundraiserId: request.source.fundraiserId, clientSecret: intent.clientSecret, mandateId: intent.id };
  // Without an Idempotency-Key there is no key to claim beside the row: its INSERT is atomic on its own (shared with
  // the mandates created at the same moment, under group commit; a transaction around it would add two statements).
  if (scope.key === undefined) {
    await deps.mandates.write(row);
    return { status: 200, items, replayed: false };
  }
  return idempotent<MandateCreated>(db, scope, async (trx) => {
    await insertMandate(trx, row);
    return { status: 200, items };
  });
}

/** What creating a mandate needs: the database, this app's enrolment cache, the provider, how mandates are written. */
export interface MandateDeps {
  db: Kysely<DB>;
  enrolments: EnrolmentCache;
  provider: PaymentProvider;
  /** Group commit or one statement each (MANDATE_GROUP_COMMIT); used for requests without an Idempotency-Key. */
  mandates: MandateWriter;
}

interface MandateCreated {
  fundraiserId: string;
  clientSecret: string;
  mandateId: string;
}

/** Scoped to the partner and the body; a request without Idempotency-Key gets a key of its own. */
function providerIdempotencyKey(partnerId: string, idempotencyKey: string | undefined, hash: string): string {
  if (idempotencyKey === undefined) return `mandate:${randomUUID()}`;
  const key = createHash('sha256').update(idempotencyKey).digest('hex');
  return `mandate:${partnerId}:${key}:${hash}`;
}

/**
 * A mandate of the calling partner. A provider whose webhooks keep our copy current (Stripe) is never called on a
 * read; otherwise (the simulator) the provider is asked until the mandate reaches a final status.
 */
export async function getMandate(db: Kysely<DB>, provider: PaymentProvider, principal: Principal, id: string) {
  let mandate = await findOwnMandate(db, principal, id);
  if (!mandate) throw new ApiError('NOT_FOUND', `No mandate with id ${id}`);
  if (provider.statusUpdates !== 'webhooks' && !isFinalStatus(mandate.status)) {
    const intent = await provider.retrieveSetupIntent(id);
    if (intent && intent.status !== mandate.status) mandate = await applySetupIntent(db, intent);
  }
  return toMandateRecord(mandate);
}

/**
 * The one place a mandate's status changes: copies the provider's view of the setup intent onto our record and,
 * when that changes what GET /mandates shows, records `mandate.updated` (the record exactly as GET /mandates shows
 * it) in the same transaction. Every source of a change (a read that finds the provider ahead, the sandbox
 * confirmation, the provider's webhooks) goes through here, so partners are told of each change once.
 */
export async function applySetupIntent(db: Kysely<DB>, intent: SetupIntent): Promise<Mandate> {
  return db.transaction().execute(async (trx) => {
    const updated = await changeMandate(trx, intent.id, () => updateMandateFromIntent(trx, intent));
    return updated!;
  });
}

/**
 * Inside the caller's transaction: locks the mandate, lets `change` apply (or refuse, returning null: a stale
 * provider event) and records `mandate.updated` when what GET /mandates shows changed.
 */
export async function changeMandate(
  trx: Kysely<DB>,
  id: string,
  change: (before: Mandate | undefined) => Promise<Mandate | null>,
): Promise<Mandate | null> {
  const before = await lockMandate(trx, id);
  const updated = await change(before);
  if (!updated) return null;
  // A mandate that can no longer be debited (revoked, or refused by the bank) ends its recurring donations.
  if (updated.mandate_status === 'inactive' && before?.mandate_status !== 'inactive')
    await cancelPlansOfMandate(trx, id);
  const shown = JSON.stringify(toMandateRecord(updated));
  if (!before || JSON.stringify(toMandateRecord(before)) !== shown) {
    const owner = { partnerId: updated.partner_id, environment: updated.environment };
    await recordEvent(trx, owner, 'mandate.updated', toMandateRecord(updated));
  }
  return updated;
}

/**
 * The mandate record of section 2.12: `mandate` stays `{}` until the status is `succeeded`. With Stripe it also
 * says whether the mandate is still usable (`active`) or was revoked (`inactive`), as Stripe's Mandate object does.
 */
export function toMandateRecord(mandate: Mandate) {
  const accepted = mandate.status === 'succeeded' && mandate.accepted_at && mandate.url;
  return {
    mandateId: mandate.id,
    status: mandate.status,
    mandate: accepted
      ? {
          acceptedAt: new Date(mandate.accepted_at!).toISOString(),
          paymentMethod: mandate.payment_method ?? 'au_becs_debit',
          url: mandate.url!,
          ...(mandate.mandate_status ? { status: mandate.mandate_status } : {}),
        }
      : {},
  };
}
