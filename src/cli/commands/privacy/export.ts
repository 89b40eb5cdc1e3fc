import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { OperatorError } from '../../../services/operators/operator-errors.js';
import { exportPersonalData } from '../../../services/privacy/access-export.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** privacy export */
export function registerPrivacyExport(privacy: Command, ctx: CliContext) {
  withOperator(
    withJson(
      privacy
        .command('export')
        .description(
          'Write one zip of everything held about a person (an access request): index.html, JSON files, receipt ' +
            'PDFs (audited)',
        )
        .requiredOption('--email <address>', 'the address the person gave')
        .requiredOption('--out <file>', 'where to write the zip (never over an existing file)'),
    ),
  ).action((options: { email: string; out: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, io }) => {
      const path = resolve(io.cwd, options.out);
      // Refused before anything is read (and audited); 'wx' still guards against a race.
      if (existsSync(path)) throw new OperatorError(`Cannot write ${path}: the file exists.`);
      const archive = await exportPersonalData(ops, { email: options.email });
      await writeFile(path, archive.zip, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
        throw new OperatorError(`Cannot write ${path}: ${err.code === 'EEXIST' ? 'the file exists' : err.message}.`);
      });
      const summary = Object.entries(archive.counts)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ');
      out.emit({ file: path, bytes: archive.zip.length, counts: archive.counts }, () => `Wrote ${path}: ${summary}.`);
    }),
  );
}
