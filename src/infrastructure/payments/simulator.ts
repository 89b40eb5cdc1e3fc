import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { DB } from '../db/schema.js';
import { SIMULATOR_TEST_ACCOUNTS, simulatedOutcome } from './simulator-accounts.js';
import { SimulatedPayments } from './simulator-payments.js';

export { SIMULATOR_TEST_ACCOUNTS } from './simulator-accounts.js';
import type {
  CreateSetupIntentInput,
  DebitRequest,
  DebitSubmission,
  PaymentProvider,
  SetupIntent,
  SetupIntentStatus,
} from './provider.js';

export interface SimulatorOptions {
  /** Builds the URL of the hosted mandate confirmation for an intent id. */
  mandateUrl: (id: string) => string;
  now?: () => Date;
}

export class ConfirmationRejected extends Error {}

const alphanumeric = (length: number) =>
  randomBytes(length).toString('base64url').replace(/[-_]/g, 'x').slice(0, length);

/**
 * A sandbox payment provider with state in the database, so the mandate flow can be walked end to end in SIT and
 * UAT: ids and client secrets shaped like Stripe's (`seti_…`, `seti_…_secret_…`), an intent starting at
 * `requires_payment_method`, and a confirmation with test bank details that succeeds or fails as Stripe's test
 * accounts do.
 */
export class PaymentSimulator implements PaymentProvider {
  /** The simulated payments of debits, settling by the partners' clocks. */
  readonly payments: SimulatedPayments;
  readonly name = 'simulator';
  private readonly now: () => Date;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: SimulatorOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.payments = new SimulatedPayments(db);
  }

  async createSetupIntent(input: CreateSetupIntentInput): Promise<SetupIntent> {
    const id = `seti_${alphanumeric(24)}`;
    // Like the real provider, the same idempotency key returns the intent created the first time.
    const created = await this.db
      .insertInto('simulator_setup_intents')
      .values({
        id,
        client_secret: `${id}_secret_${alphanumeric(25)}`,
        idempotency_key: input.idempotencyKey,
        status: 'requires_payment_method',
        customer_email: input.email,
        customer_name: input.name,
        last_error: null,
        bsb: null,
        account_last4: null,
        accepted_at: null,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returningAll()
      .executeTakeFirst();
    // Nothing returned: the key was used before, and the first intent is the answer (one statement otherwise).
    const row =
      created ??
      (await this.db
        .selectFrom('simulator_setup_intents')
        .selectAll()
        .where('idempotency_key', '=', input.idempotencyKey)
        .executeTakeFirstOrThrow());
    return this.toIntent(row);
  }

  async retrieveSetupIntent(id: string): Promise<SetupIntent | null> {
    const row = await this.db.selectFrom('simulator_setup_intents').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    // An intent left `processing` by a delayed-success test account settles on the next read, as BECS does later.
    if (row.status === 'processing') return this.transition(id, 'succeeded', null);
    return this.toIntent(row);
  }

  /** The sandbox stand-in for the partner front-end confirming with the provider's client library. */
  async confirm(id: string, bank: { bsb: string; accountNumber: string }): Promise<SetupIntent | null> {
    const row = await this.db.selectFrom('simulator_setup_intents').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    if (row.status === 'succeeded' || row.status === 'canceled')
      throw new ConfirmationRejected(`mandate is already ${row.status}`);
    const accountNumber = bank.accountNumber.replace(/\s/g, '');
    if (bank.bsb.replace(/\D/g, '') !== SIMULATOR_TEST_ACCOUNTS.bsb.replace(/\D/g, '')) {
      throw new ConfirmationRejected(`the sandbox accepts BSB ${SIMULATOR_TEST_ACCOUNTS.bsb} only`);
    }
    await this.db
      .updateTable('simulator_setup_intents')
      .set({ bsb: bank.bsb, account_last4: accountNumber.slice(-4) })
      .where('id', '=', id)
      .execute();
    const failure = SIMULATOR_TEST_ACCOUNTS.fails[accountNumber];
    if (!failure && SIMULATOR_TEST_ACCOUNTS.debits[accountNumber] !== undefined) {
      await this.keepAccountNumber(id, accountNumber);
      return this.transition(id, 'succeeded', null);
    }
    if (failure) return this.transition(id, 'requires_payment_method', failure);
    if (
      accountNumber === SIMULATOR_TEST_ACCOUNTS.succeeds ||
      accountNumber === SIMULATOR_TEST_ACCOUNTS.succeedsAfterProcessing
    )
      await this.keepAccountNumber(id, accountNumber);
    if (accountNumber === SIMULATOR_TEST_ACCOUNTS.succeeds) return this.transition(id, 'succeeded', null);
    if (accountNumber === SIMULATOR_TEST_ACCOUNTS.succeedsAfterProcessing)
      return this.transition(id, 'processing', null);
    throw new ConfirmationRejected(
      `unknown sandbox account number; use ${SIMULATOR_TEST_ACCOUNTS.succeeds} (succeeds), ${SIMULATOR_TEST_ACCOUNTS.succeedsAfterProcessing} (succeeds after processing), ${Object.keys(SIMULATOR_TEST_ACCOUNTS.fails).join(', ')} (fail) or ${Object.keys(SIMULATOR_TEST_ACCOUNTS.debits).join(', ')} (succeed; their debits fail or are disputed)`,
    );
  }

  /**
   * Submits a debit as the provider would: one payment per idempotency key (the same debit and try always reach the
   * same payment), `processing` until it settles SETTLEMENT_DAYS later on the partner's clock, when
   * `duePayments` reports what the mandate's test account makes of it.
   */
  async createDebit(request: DebitRequest): Promise<DebitSubmission> {
    const idempotencyKey = `debit:${request.debitId}:${request.attempt}`;
    const accountNumber = await this.accountNumberOf(request.mandate.id);
    const outcome = simulatedOutcome(accountNumber, request.attempt);
    const inserted = await this.db
      .insertInto('simulator_payments')
      .values({
        id: `pi_sim_${alphanumeric(24)}`,
        idempotency_key: idempotencyKey,
        debit_id: request.debitId,
        partner_id: request.partnerId,
        amount_cents: request.amountCents,
        account_number: accountNumber,
        attempt: request.attempt,
        outcome: outcome.status,
        failure_code: outcome.failureCode,
        settles_at: new Date(request.at.getTime() + SETTLEMENT_DAYS * DAY_MS),
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    // A repeat of the key reaches the payment the first request made, as the provider's idempotency does.
    const payment =
      inserted ??
      (await this.db
        .selectFrom('simulator_payments')
        .select('id')
        .where('idempotency_key', '=', idempotencyKey)
        .executeTakeFirstOrThrow());
    return { paymentId: payment.id, status: 'processing', failure: null };
  }

  private async accountNumberOf(mandateId: string): Promise<string> {
    const row = await this.db
      .selectFrom('simulator_setup_intents')
      .select('account_number')
      .where('id', '=', mandateId)
      .executeTakeFirst();
    return row?.account_number ?? SIMULATOR_TEST_ACCOUNTS.succeeds;
  }

  private async keepAccountNumber(id: string, accountNumber: string): Promise<void> {
    await this.db
      .updateTable('simulator_setup_intents')
      .set({ account_number: accountNumber })
      .where('id', '=', id)
      .execute();
  }

  private async transition(id: string, status: SetupIntentStatus, lastError: string | null): Promise<SetupIntent> {
    const now = this.now();
    const row = await this.db
      .updateTable('simulator_setup_intents')
      .set({ status, last_error: lastError, accepted_at: status === 'succeeded' ? now : null, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.toIntent(row);
  }

  private toIntent(row: {
    id: string;
    client_secret: string;
    status: string;
    accepted_at: Date | null;
    last_error: string | null;
  }): SetupIntent {
    const status = row.status as SetupIntentStatus;
    return {
      id: row.id,
      clientSecret: row.client_secret,
      status,
      mandate:
        status === 'succeeded' && row.accepted_at
          ? {
              acceptedAt: new Date(row.accepted_at),
              paymentMethod: 'au_becs_debit',
              url: this.options.mandateUrl(row.id),
            }
          : null,
      lastError: row.last_error,
    };
  }
}

/** Simulated BECS settlement: two days after submission. */
const SETTLEMENT_DAYS = 2;
const DAY_MS = 86_400_000;
