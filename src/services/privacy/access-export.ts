import {
  auditOfSubjects,
  correctionsOf,
  debitsOf,
  donationsOfEmail,
  mailToEmail,
  mandatesOfEmail,
  plansOf,
  receiptsOfDonations,
  statementsOfEmail,
} from '../../infrastructure/repositories/privacy-access.js';
import { AuditActions, audit } from '../operators/audit.js';
import type { OperatorContext } from '../operators/context.js';
import { NotFoundError } from '../operators/operator-errors.js';
import { attachmentOf } from '../receipts/content.js';
import { accessIndexHtml, type AccessSections } from './access-index.js';
import { cleanEmail } from './input.js';

export interface AccessExport {
  /** The zip's bytes: index.html, one JSON file per kind, the receipts' PDFs. */
  zip: Uint8Array;
  counts: Record<keyof AccessSections, number>;
}

const ids = (rows: Record<string, unknown>[], key: string) => rows.map((r) => String(r[key]));

/**
 * Everything held about the person of `email`, in one zip (docs/privacy.md, "An access request";
 * docs/decisions/0073-access-export-one-zip.md): donations (with corrections), receipts with their PDFs, mandates with
 * their plans and debits, statements, messages sent to the address, and what operators did to those records (without
 * who). `index.html` says what each file holds, for a person to read. Audited with counts, never the address.
 */
export async function exportPersonalData(
  ctx: OperatorContext,
  request: { email: string; generatedAt?: Date },
): Promise<AccessExport> {
  const key = cleanEmail(request.email).toLowerCase();
  const donations = await donationsOfEmail(ctx.db, key);
  const donationIds = ids(donations, 'id');
  const mandates = await mandatesOfEmail(ctx.db, key);
  const mandateIds = ids(mandates, 'id');
  const receipts = await receiptsOfDonations(ctx.db, donationIds);
  const plans = await plansOf(ctx.db, mandateIds);
  const debits = await debitsOf(ctx.db, mandateIds);
  const sections: AccessSections = {
    donations: donations.map(({ id: _, ...rest }) => rest),
    corrections: await correctionsOf(ctx.db, donationIds),
    receipts: receipts.map(({ id: _, ...rest }) => rest),
    mandates,
    plans,
    debits,
    statements: (await statementsOfEmail(ctx.db, key)).map(({ id: _, ...rest }) => rest),
    mail: await mailToEmail(ctx.db, key),
    audit: [],
  };
  const subjects = [
    ...ids(donations, 'reference_id'),
    ...ids(receipts, 'number'),
    ...mandateIds,
    ...ids(plans, 'id'),
    ...ids(debits, 'id'),
  ];
  sections.audit = await auditOfSubjects(ctx.db, subjects);
  const entries = Object.entries(sections) as [keyof AccessSections, AccessSections[keyof AccessSections]][];
  const counts = Object.fromEntries(entries.map(([k, v]) => [k, v.length])) as AccessExport['counts'];
  if (Object.values(counts).every((n) => n === 0))
    throw new NotFoundError('Nothing is held about that address (or it was de-identified).');

  const files: Record<string, Uint8Array> = {};
  // Loaded on the first export, not at start: a rare operator request (docs/decisions/0091-idle-memory-floor-of-the-embedded-service.md).
  const { strToU8, zipSync } = await import('fflate');
  for (const [name, rows] of entries) files[`${name}.json`] = strToU8(JSON.stringify(rows, null, 2));
  for (const receipt of receipts) {
    const pdf = await attachmentOf(ctx.db, { type: 'receipt', id: String(receipt.id) });
    files[`receipts/${pdf.filename}`] = new Uint8Array(pdf.content);
  }
  files['index.html'] = strToU8(accessIndexHtml(sections, request.generatedAt ?? ctx.now()));
  // Written after the reads: an export that failed was not given to anyone.
  await audit(ctx, AuditActions.privacyExport, null, counts);
  return { zip: zipSync(files, { level: 6 }), counts };
}
