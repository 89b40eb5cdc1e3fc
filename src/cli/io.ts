import { userInfo } from 'node:os';
import type { Database } from '../infrastructure/db/connect.js';

/** Everything the CLI touches outside itself, so tests can run it in-process against their own database. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Source of DATABASE_URL, DATA_DIR, APP_ENV, QUOTA_DEFAULT_* (see src/config/). */
  env: Record<string, string | undefined>;
  /**
   * An open, migrated database to use instead of connecting from `env`. The caller owns it: it is neither
   * migrated nor closed here.
   */
  database?: Database;
  now: () => Date;
  /** The operator recorded in the audit log when --operator is not given. */
  defaultOperator: () => string;
  /** Relative file paths (imports) are read from here. */
  cwd: string;
  /** Standard input, read whole (passwords given with --password-stdin). */
  readStdin: () => Promise<string>;
  /** Whether stdout is a terminal: progress bars are drawn only there, never into a pipe or a file. */
  interactive: boolean;
}

export function defaultIo(overrides: Partial<CliIo> = {}): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    now: () => new Date(),
    defaultOperator: osUser,
    cwd: process.cwd(),
    readStdin,
    interactive: Boolean(process.stdout.isTTY),
    ...overrides,
  };
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    // Containers can run under a uid with no passwd entry.
    return process.env.USER ?? process.env.LOGNAME ?? 'unknown';
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
