import type { Kysely } from 'kysely';
import type { Principal } from '../domain/principal.js';
import { requestHash } from '../domain/request-hash.js';
import { ApiError } from '../errors.js';
import type { DB, Mandate } from '../infrastructure/db/schema.js';
import { isFinalStatus, type PaymentProvider } from '../infrastructure/payments/provider.js';
import { findOwnMandate, insertMandate, updateMandateFromIntent } from '../infrastructure/repositories/mandates.js';
import { requireEnrolment } from './enrolment.js';
import { idempotent } from './idempotency.js';
import type { RequestContext } from './record-donation.js';

export interface MandateRequest {
  source: { channel: string; fundraiserId: string; fundraiserAccountName?: string; productEnrollmentId?: string };
  fundraiser: { firstName: string; lastName: string; email: string };
  paymentMethod: 'Direct Debit';
}

/**
 * Creates a direct-debit mandate (section 4.7): a setup intent at the payment provider, recorded against the
 * partner. The response adds `mandateId`, which GET /mandates needs (DESIGN.md §11).
 */
export async function createMandate(db: Kysely<DB>, provider: PaymentProvider, request: MandateRequest, context: RequestContext) {
  const { principal } = context;
  const { account } = await requireEnrolment(db, request.source.fundraiserId, request.source.channel);
  const hash = requestHash(request);
  // The provider is called outside our transaction (never hold one across a network call). Its own idempotency key
  // makes a retried call return the same setup intent, and the transaction below then replays or records it.
  const intent = await provider.createSetupIntent({
    email: request.fundraiser.email,
    name: `${request.fundraiser.firstName} ${request.fundraiser.lastName}`,
    description: `Direct debit mandate for fundraiser ${account.member_number} (${request.source.channel})`,
    metadata: { memberNumber: account.member_number, partner: principal.partnerName, channel: request.source.channel },
    idempotencyKey: context.idempotencyKey ? `${principal.partnerId}:${hash}:${context.idempotencyKey}` : context.correlationId,
  });
  return idempotent(db, { partnerId: principal.partnerId, key: context.idempotencyKey, operation: 'POST /mandates', requestHash: hash }, async (trx) => {
    await insertMandate(trx, {
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
    });
    return { status: 200, items: { fundraiserId: request.source.fundraiserId, clientSecret: intent.clientSecret, mandateId: intent.id } };
  });
}

/** A mandate of the calling partner, refreshed from the provider until it reaches a final status. */
export async function getMandate(db: Kysely<DB>, provider: PaymentProvider, principal: Principal, id: string) {
  let mandate = await findOwnMandate(db, principal, id);
  if (!mandate) throw new ApiError('NOT_FOUND', `No mandate with id ${id}`);
  if (!isFinalStatus(mandate.status)) {
    const intent = await provider.retrieveSetupIntent(id);
    if (intent && intent.status !== mandate.status) mandate = await updateMandateFromIntent(db, intent);
  }
  return toMandateRecord(mandate);
}

/** The mandate record of section 2.12: `mandate` stays `{}` until the status is `succeeded`. */
export function toMandateRecord(mandate: Mandate) {
  const accepted = mandate.status === 'succeeded' && mandate.accepted_at && mandate.url;
  return {
    mandateId: mandate.id,
    status: mandate.status,
    mandate: accepted
      ? { acceptedAt: new Date(mandate.accepted_at!).toISOString(), paymentMethod: mandate.payment_method ?? 'au_becs_debit', url: mandate.url! }
      : {},
  };
}
