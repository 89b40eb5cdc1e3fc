import type { Kysely } from 'kysely';
import { ApiError } from '../../api-errors.js';
import type { Principal } from '../../domain/principal.js';
import type { DB, Mandate } from '../../infrastructure/db/schema.js';
import type { PaymentProvider } from '../../infrastructure/payments/provider.js';
import { findOwnMandate } from '../../infrastructure/repositories/mandates.js';
import { getMandate } from '../mandates.js';

/**
 * A mandate of the calling partner that can be debited: another partner's mandate answers exactly like an unknown
 * one (404); one that has not succeeded, or was revoked since, is a 409 naming its status.
 */
export async function requireDebitableMandate(
  db: Kysely<DB>,
  provider: PaymentProvider,
  principal: Principal,
  mandateId: string,
): Promise<Mandate> {
  // Read as GET /mandates reads it, so a status the provider has moved on is seen here too.
  const record = await getMandate(db, provider, principal, mandateId);
  if (record.status !== 'succeeded')
    throw new ApiError(
      'CONFLICT',
      `Mandate ${mandateId} is ${record.status}: only a succeeded mandate can be debited (the payer confirms it first)`,
    );
  const mandate = (await findOwnMandate(db, principal, mandateId))!;
  if (mandate.mandate_status === 'inactive')
    throw new ApiError('CONFLICT', `Mandate ${mandateId} was revoked (inactive): it can no longer be debited`);
  if (!principal.channels.has(mandate.channel))
    throw new ApiError('UNAUTHORIZED', 'No access to the operation for this mandate’s channel');
  return mandate;
}
