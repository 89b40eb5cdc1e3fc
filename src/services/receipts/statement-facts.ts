import type { Kysely } from 'kysely';
import { dateIn } from '../../domain/calendar-date.js';
import type { ReceiptFacts } from '../../domain/receipt.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { StatementItem, StatementRow } from '../../infrastructure/db/schema-receipts.js';
import { findIssuer } from '../../infrastructure/repositories/receipts.js';

/** What an end-of-year statement says: the donor, the year, and the receipts in force when it was issued. */
export interface StatementFacts {
  sample: boolean;
  issuer: ReceiptFacts['issuer'];
  financialYear: string;
  donorName: string;
  issuedOn: string;
  items: StatementItem[];
  totalCents: number;
}

export async function statementFacts(db: Kysely<DB>, row: StatementRow): Promise<StatementFacts> {
  const issuer = await findIssuer(db, row.issuer_id);
  return {
    sample: row.series === 'sample',
    issuer: { legalName: issuer.legal_name, abn: issuer.abn, dgrStatement: issuer.dgr_statement },
    financialYear: row.financial_year,
    donorName: row.donor_name,
    issuedOn: dateIn(new Date(row.issued_at), issuer.time_zone),
    items: row.items,
    totalCents: Number(row.total_cents),
  };
}
