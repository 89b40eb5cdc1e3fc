import type { Kysely } from 'kysely';
import { dateIn } from '../../domain/calendar-date.js';
import type { ReceiptFacts } from '../../domain/receipt.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { ReceiptRow } from '../../infrastructure/db/schema-receipts.js';
import {
  findIssuer,
  issuersByIds,
  receiptNumberOf,
  receiptsByIds,
  type IssuerRow,
} from '../../infrastructure/repositories/receipts.js';

/** Everything a receipt says, from its register row and the terms it names: the same row, the same receipt. */
export async function receiptFacts(db: Kysely<DB>, row: ReceiptRow): Promise<ReceiptFacts> {
  return factsOf(row, await findIssuer(db, row.issuer_id), await receiptNumberOf(db, row.replaces_id));
}

/**
 * The facts of many receipts at once (a batch of messages): three statements whatever their number. An id without
 * a receipt is absent from the answer.
 */
export async function receiptFactsByIds(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, ReceiptFacts>> {
  const rows = await receiptsByIds(db, ids);
  const issuers = await issuersByIds(
    db,
    [...rows.values()].map((row) => String(row.issuer_id)),
  );
  const replaced = await receiptsByIds(
    db,
    [...rows.values()].flatMap((row) => (row.replaces_id ? [row.replaces_id] : [])),
  );
  const facts = new Map<string, ReceiptFacts>();
  for (const [id, row] of rows) {
    const replacesNumber = row.replaces_id ? (replaced.get(row.replaces_id)?.number ?? null) : null;
    facts.set(id, factsOf(row, issuers.get(String(row.issuer_id))!, replacesNumber));
  }
  return facts;
}

function factsOf(row: ReceiptRow, issuer: IssuerRow, replacesNumber: string | null): ReceiptFacts {
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
    replacesNumber,
    voided: row.voided_at ? { on: dateIn(new Date(row.voided_at), zone), reason: row.void_reason ?? 'voided' } : null,
  };
}
