import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { PRESET_NAMES, type PresetName } from '../../../services/bank-statements/csv-layouts.js';
import { importStatement } from '../../../services/bank-statements/import-statement.js';
import { InvalidInputError } from '../../../services/operators/operator-errors.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { importText, matchingSettings } from './shared.js';

/** bank import */
export function registerBankImport(bank: Command, ctx: CliContext) {
  withOperator(
    withJson(
      bank
        .command('import')
        .description('Import a bank statement (camt.053 XML, or CSV with --preset or --mapping) and match its lines')
        .argument('<file>', 'the statement: .xml (camt.053) or .csv')
        .addOption(new Option('--preset <bank>', 'the CSV layout of a bank’s export').choices(PRESET_NAMES))
        .option('--mapping <file>', 'a JSON mapping of the CSV’s columns, for any other bank (docs/bank-statements.md)')
        .option('--account <account>', 'the account of a CSV export that has no account column'),
    ),
  ).action((file: string, options: { preset?: PresetName; mapping?: string; account?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, io, config }) => {
      if (options.preset && options.mapping) throw new InvalidInputError('Give --preset or --mapping, not both.');
      const read = (path: string) =>
        readFile(resolve(io.cwd, path), 'utf8').catch((err: NodeJS.ErrnoException) => {
          throw new InvalidInputError(`Cannot read ${path}: ${err.code === 'ENOENT' ? 'no such file' : err.message}.`);
        });
      const mapping = options.mapping ? { fileName: options.mapping, content: await read(options.mapping) } : undefined;
      const result = await importStatement(ops, matchingSettings(config), {
        fileName: file,
        content: await read(file),
        preset: options.preset,
        mapping,
        account: options.account,
      });
      out.emit(result, () => importText(result));
    }),
  );
}
