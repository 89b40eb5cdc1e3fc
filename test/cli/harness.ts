import { runCli } from '../../src/cli/main.js';
import type { Database } from '../../src/infrastructure/db/connect.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (the command was run with --json). */
  json<T = any>(): T;
}

/**
 * Runs the CLI in-process, through its real entry point (runCli), on a test database and clock. `env` stands in
 * for the process environment (so the developer's own DATABASE_URL or DATA_DIR never leak in).
 */
export function cli(options: {
  database: Database;
  now?: () => Date;
  operator?: string;
  env?: Record<string, string>;
}) {
  return async (...argv: string[]): Promise<CliResult> => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      database: options.database,
      now: options.now ?? (() => new Date()),
      env: { ...options.env },
      defaultOperator: () => options.operator ?? 'test-operator',
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
    });
    return {
      code,
      stdout,
      stderr,
      json: () => {
        try {
          return JSON.parse(stdout);
        } catch {
          throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
        }
      },
    };
  };
}

export type Cli = ReturnType<typeof cli>;

/** Runs a command that must succeed and returns its JSON output. */
export async function ok<T = any>(run: Cli, ...argv: string[]): Promise<T> {
  const result = await run(...argv, '--json');
  if (result.code !== 0) throw new Error(`${argv.join(' ')} exited ${result.code}:\n${result.stderr}`);
  return result.json<T>();
}
