import { Command, CommanderError } from 'commander';
import { applicationInfo } from '../version.js';
import { InvalidInputError } from '../services/operators/operator-errors.js';
import { commandGroups } from './commands/index.js';
import { CliContext } from './context.js';
import { defaultIo, type CliIo } from './io.js';
import { Output } from './output.js';

/** Exit codes: 0 done, 1 the operation failed (message on stderr), 2 the command line was wrong. */
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/**
 * Runs `fundraiser-admin` with `argv` (without the node and script names) and resolves to the exit code. The bin
 * and the tests both call it; tests pass their own output sinks, clock and an open database.
 */
export async function runCli(argv: readonly string[], io: Partial<CliIo> = {}): Promise<number> {
  const ctx = new CliContext(defaultIo(io));
  const json = asksForJson(argv);
  const program = buildProgram(ctx, json);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.exitCode === 0) return 0;
    if (json) new Output(ctx.io, true).error(new InvalidInputError(usageMessage(err)));
    return EXIT_USAGE;
  } finally {
    await ctx.close();
  }
}

/**
 * A wrong command line is found before any command reads its options, so whether the caller asked for JSON is read
 * from `argv` itself (an operand after `--` is no option).
 */
function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** Commander's message without its "error: " prefix; a group run without a command shows its usage instead of one. */
function usageMessage(err: CommanderError): string {
  if (err.code === 'commander.help') return 'No command given: add --help to list the commands.';
  return err.message.replace(/^error: /, '');
}

/** The whole command tree, as `runCli` parses with it (test/unit/cli-doc.test.ts walks it for the docs check). */
export function buildProgram(ctx: CliContext, json: boolean): Command {
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
    // With --json, stderr holds one JSON document: commander's error, usage and hints give way to the one runCli
    // writes. Help and the version asked for go to stdout as text whatever the mode.
    .configureOutput(
      json
        ? { writeOut: ctx.io.stdout, writeErr: () => undefined, outputError: () => undefined }
        : { writeOut: ctx.io.stdout, writeErr: ctx.io.stderr },
    )
    .showHelpAfterError('(add --help for usage)')
    .helpCommand(true);
  for (const register of commandGroups) register(program, ctx);
  return program;
}
