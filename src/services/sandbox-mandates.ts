import type { Kysely } from 'kysely';
import type { Principal } from '../domain/principal.js';
import { ApiError } from '../api-errors.js';
import type { DB } from '../infrastructure/db/schema.js';
import { ConfirmationRejected, type PaymentSimulator } from '../infrastructure/payments/simulator.js';
import { findOwnMandate } from '../infrastructure/repositories/mandates.js';
import { applySetupIntent, toMandateRecord } from './mandates.js';

/**
 * Sandbox only: what the partner's front end does with the client secret and the provider's client library,
 * done server-side against the simulator with test bank details.
 */
export async function confirmSandboxMandate(
  db: Kysely<DB>,
  simulator: PaymentSimulator,
  principal: Principal,
  id: string,
  bank: { bsb: string; accountNumber: string },
) {
  const mandate = await findOwnMandate(db, principal, id);
  if (!mandate || mandate.provider !== simulator.name) throw new ApiError('NOT_FOUND', `No mandate with id ${id}`);
  try {
    const intent = await simulator.confirm(id, bank);
    if (!intent) throw new ApiError('NOT_FOUND', `No mandate with id ${id}`);
    const updated = await applySetupIntent(db, intent);
    return { ...toMandateRecord(updated), ...(intent.lastError ? { lastSetupError: intent.lastError } : {}) };
  } catch (err) {
    if (err instanceof ConfirmationRejected) throw new ApiError('VALIDATION', err.message);
    throw err;
  }
}
