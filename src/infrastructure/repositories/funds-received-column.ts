import { sql } from 'kysely';

/**
 * When a bank line was matched to a remittance entry, its money received (docs/bank-statements.md); null when none
 * is. A column for any select from remittance_entries: one probe of the index of active matches per entry.
 */
export const fundsReceivedAt = sql<Date | null>`(select me.received_at from bank_match_entries me
  where me.batch_id = remittance_entries.batch_id and me.position = remittance_entries.position and me.active)`.as(
  'funds_received_at',
);

export interface FundsReceivedColumn {
  funds_received_at: Date | string | null;
}
