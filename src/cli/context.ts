import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config/index.js';
import { openDatabase } from '../composition.js';
import type { Database } from '../infrastructure/db/connect.js';
import { DataDirectoryInUseError } from '../infrastructure/db/data-dir-lock.js';
import { isDatabaseUnavailable } from '../infrastructure/db/unavailable.js';
import { migrate } from '../infrastructure/db/migrate.js';
import type { OperatorContext } from '../services/operators/context.js';
import { InvalidInputError, OperatorError } from '../services/operators/operator-errors.js';
import type { CliIo } from './io.js';
import { Output } from './output.js';

/** What a command's action works with. */
export interface Session {
  ops: OperatorContext;
  out: Output;
  config: Config;
  io: CliIo;
}

/**
 * Shared by every command of one CLI run: settings, the database (opened on first use, so --help needs none)
 * and the exit code. Actions run through run(), which renders any error and sets a non-zero exit code.
 */
export class CliContext {
  exitCode = 0;
  /** Migrations this run applied when it opened the database (`fundraiser-admin migrate` reports them). */
  migrationsApplied: string[] = [];
  private config?: Config;
  private database?: Promise<Database>;

  constructor(readonly io: CliIo) {}

  settings(): Config {
    this.config ??= loadConfig(this.io.env);
    return this.config;
  }

  /**
   * Runs a command's work. Only a command meant to initialise a database (`migrate`) passes `createsDatabase`:
   * any other, pointed at a directory with no embedded database, is refused instead of creating an empty one.
   */
  async run(
    command: Command,
    work: (session: Session) => Promise<void>,
    { createsDatabase = false }: { createsDatabase?: boolean } = {},
  ): Promise<void> {
    const options = command.opts<{ json?: boolean; operator?: string }>();
    const out = new Output(this.io, Boolean(options.json));
    try {
      const operator = (options.operator ?? this.io.defaultOperator()).trim();
      if (operator === '') throw new InvalidInputError('--operator must name who is making the change.');
      const config = this.settings();
      const database = await this.open(createsDatabase, out);
      await work({ ops: { db: database.db, operator, now: this.io.now }, out, config, io: this.io });
      out.finish();
    } catch (err) {
      out.error(explain(err), { debug: Boolean(this.io.env.FUNDRAISER_ADMIN_DEBUG) });
      this.exitCode = 1;
    }
  }

  /** Closes the database this run opened (an injected one belongs to the caller). */
  async close(): Promise<void> {
    if (!this.database || this.io.database) return;
    const database = await this.database.catch(() => undefined);
    await database?.close();
  }

  private open(createsDatabase: boolean, out: Output): Promise<Database> {
    if (this.io.database) return Promise.resolve(this.io.database);
    this.database ??= this.connect(createsDatabase, out);
    return this.database;
  }

  /** The service's own settings and migrations: the CLI works on exactly the database the service uses. */
  private async connect(createsDatabase: boolean, out: Output): Promise<Database> {
    const config = this.settings();
    if (!config.DATABASE_URL && !createsDatabase) requireEmbeddedDatabase(resolve(this.io.cwd, config.DATA_DIR));
    // Two connections: a command runs one statement at a time, beside the service's own pool.
    const database = await openDatabase(config, { poolMax: 2 });
    out.opened(database.location);
    try {
      this.migrationsApplied = await migrate(database);
    } catch (err) {
      await database.close();
      throw Object.assign(err as Error, { location: database.location });
    }
    return database;
  }
}

/**
 * Run from another directory, DATA_DIR (./data by default) names a directory with no database: opening it would
 * create a new, empty one and the command would "succeed" on the wrong database.
 */
function requireEmbeddedDatabase(dataDir: string): void {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  throw new OperatorError(
    `There is no embedded database in ${dataDir}. Run fundraiser-admin from the service's directory, or set ` +
      `DATA_DIR to its data directory (or DATABASE_URL to its PostgreSQL server). To create a new embedded ` +
      `database there, run \`fundraiser-admin migrate\` (or start the service once).`,
  );
}

/** Turns the failures an operator can fix (settings, a busy data directory, an unreachable server) into plain messages. */
function explain(err: unknown): unknown {
  if (err instanceof ConfigError || err instanceof DataDirectoryInUseError) return new OperatorError(err.message);
  if (isDatabaseUnavailable(err)) {
    const location = (err as { location?: string }).location ?? 'the database';
    return new OperatorError(
      `Cannot reach ${location}: ${(err as Error).message}. Check DATABASE_URL (or DATA_DIR) and that the server is running.`,
    );
  }
  return err;
}
