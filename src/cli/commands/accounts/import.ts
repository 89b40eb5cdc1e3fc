import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { InvalidInputError } from '../../../services/operators/operator-errors.js';
import { importAccounts, type ImportFormat } from '../../../services/operators/reference-data/import-accounts.js';
import { bankDetailsSettings } from '../../../services/grants/bank-details/settings.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { importText, ProgressBar } from './shared.js';

/** accounts import */
export function registerAccountsImport(accounts: Command, ctx: CliContext) {
  withOperator(
    withJson(
      accounts
        .command('import')
        .description('Import accounts with their products from JSON or CSV, upserting by member number; all or nothing')
        .argument('<file>', 'a .json or .csv file (see examples/accounts.json, examples/accounts.csv and docs/cli.md)')
        .addOption(
          new Option('--format <format>', 'file format (default: from the extension)').choices(['json', 'csv']),
        )
        .option('--dry-run', 'check the file and show what would change, writing nothing'),
    ),
  ).action((file: string, options: { format?: ImportFormat; dryRun?: boolean }, command: Command) =>
    ctx.run(command, async ({ ops, out, io, config }) => {
      const content = await readFile(resolve(io.cwd, file), 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new InvalidInputError(`Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}.`);
      });
      const progress = io.interactive && !out.json ? new ProgressBar() : null;
      const summary = await importAccounts(ops, {
        fileName: file,
        content,
        format: options.format,
        dryRun: options.dryRun,
        onProgress: progress?.update,
        bankSettings: bankDetailsSettings(config),
      }).finally(() => progress?.stop());
      out.emit(summary, () => importText(summary));
    }),
  );
}
