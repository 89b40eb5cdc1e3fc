/** What the subcommands of this group share: options and how results are shown. */
import { Presets, SingleBar } from 'cli-progress';
import type { Product } from '../../../infrastructure/db/schema.js';
import type { AccountDetail } from '../../../services/operators/accounts.js';
import type { ImportSummary } from '../../../services/operators/reference-data/import-accounts.js';
import { fields, formatAud } from '../../output.js';

/** Counts, not a table of every row (a 20,000-row file would print 20,000 lines); --json lists every account. */
export function importText(summary: ImportSummary): string {
  const verb = summary.dryRun ? 'Dry run: nothing written. Would import' : 'Imported';
  return [
    `${verb} ${summary.accounts.length} account(s) from ${summary.file}:`,
    fields([
      [summary.dryRun ? 'Would be created' : 'Created', summary.created],
      [summary.dryRun ? 'Would be updated' : 'Updated', summary.updated],
      ['Products', summary.products],
      [
        summary.dryRun ? 'Bank changes that would wait for verification' : 'Bank changes waiting for verification',
        summary.bankChanges,
      ],
    ]),
    'Every account is listed with --json.',
  ].join('\n');
}

/** A progress bar on the terminal's stderr while an import writes (stdout stays the summary). */
export class ProgressBar {
  private readonly bar = new SingleBar(
    { stream: process.stderr, format: 'Importing [{bar}] {percentage}% | {value}/{total} accounts | {eta}s left' },
    Presets.shades_classic,
  );
  private started = false;

  update = (done: number, total: number) => {
    if (!this.started) this.bar.start(total, 0);
    this.started = true;
    this.bar.update(done);
  };

  stop = () => {
    if (this.started) this.bar.stop();
  };
}

const amounts = (p: Product) => p.donation_amounts_cents.map(formatAud);

export function accountText({ account, products }: AccountDetail): string {
  const head = fields([
    ['Member number', account.member_number],
    ['CRM id', account.crm_id],
    ['Name', account.name],
    ['ABN', account.abn],
    ['Updated', account.updated_at],
  ]);
  const productTables = products.map((p) =>
    fields([
      ['Channel', p.channel],
      ['Status', p.status],
      ['Enrolment status', p.enrollment_status],
      ['Product enrolment id', p.product_enrollment_id],
      ['Description', p.description],
      ['Suggested amounts (AUD)', amounts(p)],
      ['Logo', p.logo],
      ['Cover image', p.cover_image],
      ['Story', p.story],
      ['Campaigns', p.campaigns],
    ]),
  );
  return [head, products.length === 0 ? 'No products.' : 'Products:', ...productTables].join('\n');
}

/** The fields of the JSON import format, so a shown account can be edited and imported back. */
export function accountJson({ account, products }: AccountDetail) {
  return {
    memberNumber: account.member_number,
    crmId: account.crm_id,
    name: account.name,
    abn: account.abn,
    products: products.map((p) => ({
      channel: p.channel,
      status: p.status,
      description: p.description,
      logo: p.logo,
      coverImage: p.cover_image,
      donationAmounts: amounts(p),
      story: p.story,
      campaigns: p.campaigns,
      productEnrollmentId: p.product_enrollment_id,
      enrollmentStatus: p.enrollment_status,
    })),
  };
}
