import type { Kysely } from 'kysely';
import type { ReceiptPolicy } from '../../config/receipts.js';
import { financialYearDates } from '../../domain/financial-year.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  issueStatements as insertStatements,
  statementOf,
} from '../../infrastructure/repositories/receipt-statements.js';
import { issuerId } from '../../infrastructure/repositories/receipts.js';
import { enqueueMail } from '../mail/outbox.js';

/**
 * End-of-year statements (docs/receipts.md, "Statements"): one per donor e-mail and financial year, listing the
 * receipts in force for that year's gifts when it is issued. Issuing again issues only those still missing; asked
 * for one donor whose statement exists, it is sent again as it was.
 */
export async function issueYearStatements(
  db: Kysely<DB>,
  request: { year: string; email?: string; policy: ReceiptPolicy; production: boolean; requestedBy: string },
): Promise<{ issued: number; resent: number }> {
  const series = request.production ? 'live' : 'sample';
  return db.transaction().execute(async (trx) => {
    const issuer = await issuerId(trx, {
      ...request.policy.issuer,
      minimumCents: request.policy.minimumCents,
      timeZone: request.policy.timeZone,
    });
    const { first, last } = financialYearDates(request.year);
    const issued = await insertStatements(trx, {
      series,
      year: request.year,
      first,
      last,
      ...(request.email ? { email: request.email } : {}),
      issuerId: issuer,
      requestedBy: request.requestedBy,
    });
    if (issued > 0 || !request.email) return { issued, resent: 0 };
    const existing = await statementOf(trx, { series, year: request.year, email: request.email });
    if (!existing) return { issued: 0, resent: 0 };
    await enqueueMail(trx, {
      kind: 'receipt-statement',
      recipient: existing.donor_email,
      attachments: [{ type: 'statement', id: existing.id }],
      about: `statement:${existing.id}`,
    });
    return { issued: 0, resent: 1 };
  });
}
