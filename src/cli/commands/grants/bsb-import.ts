import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { importBsbDirectory } from '../../../services/grants/bank-details/bsb-import.js';
import { InvalidInputError } from '../../../services/operators/operator-errors.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { fields } from '../../output.js';

/** Skipped lines listed for people (every one with --json). */
const LISTED = 20;

/** grants bsb-import <file> */
export function registerGrantsBsbImport(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('bsb-import')
        .description('Import the BSB directory the banks publish, replacing the one before (audited)')
        .argument('<file>', 'the BSB file, comma-separated: "BSB","Bank code","Branch name",… one branch a line'),
    ),
  ).action((file: string, _options: object, command: Command) =>
    ctx.run(command, async ({ ops, out, io }) => {
      const content = await readFile(resolve(io.cwd, file), 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new InvalidInputError(`Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}.`);
      });
      const result = await importBsbDirectory(ops, { fileName: file, content });
      out.emit(result, () =>
        [
          fields([
            ['File', result.file],
            ['Branches imported', result.imported],
            ['Branches replaced', result.replaced],
            ['Lines skipped', result.skipped.length],
          ]),
          ...result.skipped.slice(0, LISTED).map((s) => `Skipped line ${s.line}: ${s.reason}`),
          ...(result.skipped.length > LISTED
            ? [`… and ${result.skipped.length - LISTED} more; --json lists every one.`]
            : []),
        ].join('\n'),
      );
    }),
  );
}
