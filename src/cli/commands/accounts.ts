import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { Product } from '../../infrastructure/db/schema.js';
import { listAccounts, setProductStatus, showAccount, type AccountDetail, type AccountSummary } from '../../services/operators/accounts.js';
import { InvalidInputError } from '../../services/operators/errors.js';
import { importAccounts, type ImportFormat, type ImportSummary } from '../../services/operators/reference-data/import-accounts.js';
import type { CliContext } from '../context.js';
import { wholeNumber, withJson, withOperator } from '../options.js';
import { fields, formatCents, table, tableOr } from '../output.js';

/** accounts import | list | show | set-product-status */
export function registerAccounts(program: Command, ctx: CliContext) {
  const accounts = program.command('accounts').description('Fundraiser accounts and their products per channel (reference data)');

  withOperator(
    withJson(
      accounts
        .command('import')
        .description('Import accounts with their products from JSON or CSV, upserting by member number; all or nothing')
        .argument('<file>', 'a .json or .csv file (see examples/accounts.json, examples/accounts.csv and docs/cli.md)')
        .addOption(new Option('--format <format>', 'file format (default: from the extension)').choices(['json', 'csv']))
        .option('--dry-run', 'check the file and show what would change, writing nothing'),
    ),
  ).action((file: string, options: { format?: ImportFormat; dryRun?: boolean }, command: Command) =>
    ctx.run(command, async ({ ops, out, io }) => {
      const content = await readFile(resolve(io.cwd, file), 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new InvalidInputError(`Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}.`);
      });
      const summary = await importAccounts(ops, { fileName: file, content, format: options.format, dryRun: options.dryRun });
      out.emit(summary, () => importText(summary));
    }),
  );

  withJson(
    accounts
      .command('list')
      .description('List accounts with the status of each product')
      .option('--search <text>', 'name, member number or CRM id containing this text')
      .option('--channel <name>', 'only accounts with a product for this channel')
      .option('--limit <n>', 'at most this many accounts', wholeNumber(1, 100_000), 200),
  ).action((options: { search?: string; channel?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listAccounts(ops, options);
      out.emit(rows, () =>
        tableOr(
          rows,
          [
            { header: 'Member', value: (a: AccountSummary) => a.memberNumber },
            { header: 'CRM id', value: (a) => a.crmId },
            { header: 'Name', value: (a) => a.name },
            { header: 'ABN', value: (a) => a.abn },
            { header: 'Products', value: (a) => a.products.map((p) => `${p.channel}: ${p.status}`) },
          ],
          'No accounts match.',
        ),
      );
    }),
  );

  withJson(
    accounts.command('show').description('Show an account and all its products').argument('<id>', 'member number or CRM id (15 or 18 characters)'),
  ).action((id: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const detail = await showAccount(ops, id);
      out.emit(accountJson(detail), () => accountText(detail));
    }),
  );

  withOperator(
    withJson(
      accounts
        .command('set-product-status')
        .description('Change the status of an account\'s product for one channel; only "Activated" is an active enrolment')
        .argument('<id>', 'member number or CRM id')
        .requiredOption('--channel <name>', 'the product\'s channel')
        .requiredOption('--status <status>', 'new status, e.g. Activated, Suspended, Pending Activation')
        .option('--enrollment-status <text>', 'new enrolment status text shown to partners, e.g. "Enrollment Validated"'),
    ),
  ).action((id: string, options: { channel: string; status: string; enrollmentStatus?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const detail = await setProductStatus(ops, id, options.channel, { status: options.status, enrollmentStatus: options.enrollmentStatus });
      out.emit(accountJson(detail), () => `Product status changed.\n${accountText(detail)}`);
    }),
  );
}

function importText(summary: ImportSummary): string {
  const verb = summary.dryRun ? 'Dry run: nothing written. Would import' : 'Imported';
  return [
    `${verb} ${summary.accounts.length} account(s) from ${summary.file}: ${summary.created} new, ${summary.updated} updated, ${summary.products} product(s).`,
    table(summary.accounts, [
      { header: 'Member', value: (a) => a.memberNumber },
      { header: 'Name', value: (a) => a.name },
      { header: summary.dryRun ? 'Would be' : 'Result', value: (a) => a.action },
      { header: 'Channels', value: (a) => a.channels },
    ]),
  ].join('\n');
}

const amounts = (p: Product) => p.donation_amounts_cents.map(formatCents);

function accountText({ account, products }: AccountDetail): string {
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
function accountJson({ account, products }: AccountDetail) {
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
