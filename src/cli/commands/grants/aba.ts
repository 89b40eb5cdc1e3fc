import type { Command } from 'commander';
import { downloadAba } from '../../../services/grants/rounds/aba-download.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { refuseExisting, withRound, writeNewFile } from './shared.js';

/** grants aba */
export function registerGrantsAba(grants: Command, ctx: CliContext) {
  withJson(
    withRound(
      grants
        .command('aba')
        .description("Write an approved round's ABA file for the bank: the same bytes every time (audited)")
        .option('--out <file>', 'where to write it (default: grants-round-<n>.aba in the current directory)'),
    ),
  ).action((options: { round: number; out?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, io }) => {
      refuseExisting(io.cwd, options.out);
      const file = await downloadAba(ops, options.round);
      const path = await writeNewFile(io.cwd, options.out ?? file.fileName, file.bytes);
      out.emit(
        { file: path, bytes: file.bytes.length, sha256: file.sha256 },
        () => `Wrote ${path} (${file.bytes.length} bytes, SHA-256 ${file.sha256}).`,
      );
    }),
  );
}
