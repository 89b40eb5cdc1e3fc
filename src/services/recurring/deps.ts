import type { Kysely } from 'kysely';
import type { ReceiptPolicy } from '../../config/receipts.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { PaymentProvider } from '../../infrastructure/payments/provider.js';
import type { PaymentSimulator } from '../../infrastructure/payments/simulator.js';

/** The retry policy of failed debits (RECURRING_* settings). */
export interface RecurringPolicy {
  /** Days after a failed try that each further try is made. */
  retryDelaysDays: number[];
  /** Debits in a row failed after their last try that cancel a plan. */
  cancelAfterFailedDebits: number;
  /** Who issues the receipts of collected debits (docs/receipts.md); the sample issuer's when not given. */
  receipts?: ReceiptPolicy;
}

/** What the recurring-donation services work with. */
export interface RecurringDeps {
  db: Kysely<DB>;
  /** The payment provider PAYMENT_PROVIDER names. */
  provider: PaymentProvider;
  /** The sandbox simulator (outside production): its payments settle by the partners' clocks. */
  simulator: PaymentSimulator | null;
  policy: RecurringPolicy;
  /** FOUNDATION_TIME_ZONE: the dates debits are due on are its dates. */
  timeZone: string;
  now: () => Date;
}
