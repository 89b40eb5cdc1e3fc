import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A simulated payment whose settlement time has come, and what it ends as. */
export interface SimulatedSettlement {
  paymentId: string;
  debitId: string;
  attempt: number;
  outcome: 'succeeded' | 'failed' | 'disputed';
  failureCode: string | null;
  settlesAt: Date;
}

/** The simulator's payments of debits (migration 021): one per idempotency key, settling at a simulated time. */
export class SimulatedPayments {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * The partner's payments whose settlement time has come by `now`, oldest first, with what each ends as: a
   * disputed one succeeds, then is disputed. The caller applies them and marks each settled (`markSettled`); a crash
   * in between reports it again, and applying an outcome twice changes nothing.
   */
  async duePayments(partnerId: string, now: Date): Promise<SimulatedSettlement[]> {
    const due = await this.db
      .selectFrom('simulator_payments')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .where('settled', '=', false)
      .where('settles_at', '<=', now)
      .orderBy('settles_at')
      .execute();
    return due.map((payment) => ({
      paymentId: payment.id,
      debitId: payment.debit_id,
      attempt: payment.attempt,
      outcome: payment.outcome as SimulatedSettlement['outcome'],
      failureCode: payment.failure_code,
      settlesAt: new Date(payment.settles_at),
    }));
  }

  async markSettled(paymentId: string): Promise<void> {
    await this.db.updateTable('simulator_payments').set({ settled: true }).where('id', '=', paymentId).execute();
  }

  /** When the partner's next payment settles, if one is open (the sandbox clock walks from event to event). */
  async nextSettlement(partnerId: string): Promise<Date | null> {
    const row = await this.db
      .selectFrom('simulator_payments')
      .select((eb) => eb.fn.min('settles_at').as('next'))
      .where('partner_id', '=', partnerId)
      .where('settled', '=', false)
      .executeTakeFirst();
    return row?.next ? new Date(row.next) : null;
  }

  /** The partners with payments still to settle (each settles by its own clock). */
  async partnersWithOpenPayments(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('simulator_payments')
      .select('partner_id')
      .distinct()
      .where('settled', '=', false)
      .execute();
    return rows.map((row) => row.partner_id);
  }
}
