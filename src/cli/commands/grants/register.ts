import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { grantRegisterCsv } from '../../../services/grants/register-csv.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { refuseExisting } from './shared.js';

/** grants register */
export function registerGrantsRegister(grants: Command, ctx: CliContext) {
  withJson(
    grants
      .command('register')
      .description('Write the grants register as CSV for the auditor: one row per grant (audited)')
      .requiredOption('--out <file>', 'the CSV file to write (never over an existing one)')
      .option('--from <date>', 'YYYY-MM-DD: rounds whose cut-off day is on or after it')
      .option('--to <date>', 'YYYY-MM-DD: rounds whose cut-off day is on or before it'),
  ).action((options: { out: string; from?: string; to?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, io, config }) => {
      refuseExisting(io.cwd, options.out);
      const path = resolve(io.cwd, options.out);
      const csv = await grantRegisterCsv(ops, {
        from: options.from,
        to: options.to,
        timeZone: config.FOUNDATION_TIME_ZONE,
      });
      await pipeline(csv, createWriteStream(path, { flags: 'wx' }));
      out.emit({ file: path }, () => `Wrote ${path}.`);
    }),
  );
}
