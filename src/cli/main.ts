import { Command, CommanderError } from 'commander';
import { applicationInfo } from '../version.js';
import { commandGroups } from './commands/index.js';
import { CliContext } from './context.js';
import { defaultIo, type CliIo } from './io.js';

/** Exit codes: 0 done, 1 the operation failed (message on stderr), 2 the command line was wrong. */
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/**
 * Runs `fundraiser-admin` with `argv` (without the node and script names) and resolves to the exit code. The bin
 * and the tests both call it; tests pass their own output sinks, clock and an open database.
 */
export async function runCli(argv: readonly string[], io: Partial<CliIo> = {}): Promise<number> {
  const ctx = new CliContext(defaultIo(io));
  const program = buildProgram(ctx);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : EXIT_USAGE;
    throw err;
  } finally {
    await ctx.close();
  }
}

function buildProgram(ctx: CliContext): Command {
  const program = new Command('fundraiser-admin')
    .description(
      'Operator tool of the Fundraiser partner API: partners, credentials, fundraiser reference data, support look-ups.',
    )
    .addHelpText(
      'after',
      [
        '',
        'Database: the one the service uses, from the same settings: DATABASE_URL (PostgreSQL), or else the embedded',
        'database in DATA_DIR (default ./data), which admits one process at a time: stop the service first.',
        'Every command takes --help and --json; every change is recorded in the audit log (see "audit list").',
        'Exit status: 0 done, 1 the operation failed (reason on stderr), 2 the command line was wrong.',
        'Guide: docs/cli.md',
      ].join('\n'),
    )
    // Settings below are inherited by every subcommand created afterwards.
    .version(applicationInfo.version, '-V, --version', 'print the version and exit')
    .exitOverride()
    .configureOutput({ writeOut: ctx.io.stdout, writeErr: ctx.io.stderr })
    .showHelpAfterError('(add --help for usage)')
    .helpCommand(true);
  for (const register of commandGroups) register(program, ctx);
  return program;
}
