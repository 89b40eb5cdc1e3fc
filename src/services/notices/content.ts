import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import type { MailAttachmentRef } from '../../infrastructure/db/schema-receipts.js';
import { findNotice } from '../../infrastructure/repositories/partner-notices.js';
import { listBatchEntries } from '../../infrastructure/repositories/batch-entries.js';
import type { MailAttachment } from '../mail/outbox.js';
import { entriesCsv } from '../reconciliation/entry-export.js';

/** More exceptions than any batch holds (MAX_REMITTANCE_ENTRIES is 10,000 by default). */
const MAX_ROWS = 1_000_000;

/**
 * The CSV of a digest's exceptions, rendered when it is sent: the columns of `remittances export`, so the finance
 * team reads the same file whether an operator or the digest sends it.
 */
export async function exceptionsCsv(db: Kysely<DB>, ref: MailAttachmentRef): Promise<MailAttachment> {
  const notice = await findNotice(db, ref.id);
  if (!notice) throw new Error(`notice ${ref.id} does not exist`);
  const rows = [];
  for (const batchId of notice.details.batchIds ?? [])
    rows.push(...(await listBatchEntries(db, { batchId, exceptionsOnly: true, limit: MAX_ROWS })));
  return {
    filename: `remittance-exceptions-${notice.details.date ?? 'digest'}.csv`,
    contentType: 'text/csv; charset=utf-8',
    content: Buffer.from(entriesCsv(rows), 'utf8'),
  };
}
