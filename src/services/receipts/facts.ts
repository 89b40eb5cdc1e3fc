import type { Kysely } from 'kysely';
import { dateIn } from '../../domain/calendar-date.js';
import type { ReceiptFacts } from '../../domain/receipt.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { ReceiptRow } from '../../infrastructure/db/schema-receipts.js';
import { findIssuer, receiptNumberOf } from '../../infrastructure/repositories/receipts.js';

/** Everything a receipt says, from its register row and the terms it names: the same row, the same receipt. */
export async function receiptFacts(db: Kysely<DB>, row: ReceiptRow): Promise<ReceiptFacts> {
  const issuer = await findIssuer(db, row.issuer_id);
  const zone = issuer.time_zone;
  return {
    number: row.number,
    sample: row.series === 'sample',
    issuer: { legalName: issuer.legal_name, abn: issuer.abn, dgrStatement: issuer.dgr_statement },
    donorName: row.donor_name,
    donorBusinessName: row.donor_business_name,
    amountCents: Number(row.amount_cents),
    giftDate: row.gift_date,
    fundraiserName: row.fundraiser_name,
    issuedOn: dateIn(new Date(row.issued_at), zone),
    replacesNumber: await receiptNumberOf(db, row.replaces_id),
    voided: row.voided_at ? { on: dateIn(new Date(row.voided_at), zone), reason: row.void_reason ?? 'voided' } : null,
  };
}
