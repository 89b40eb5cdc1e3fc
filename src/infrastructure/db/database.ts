import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

export type DatabaseKind = 'postgres' | 'embedded';

/** A database the service and the CLI can use, whichever engine sits behind it. */
export interface Database {
  readonly db: Kysely<DB>;
  readonly kind: DatabaseKind;
  /** Where the data lives, without credentials (safe to log). */
  readonly location: string;
  /** Runs `steps` in one transaction whose `exec` accepts multi-statement SQL scripts (migrations). */
  scriptTransaction(steps: (tx: ScriptTransaction) => Promise<void>): Promise<void>;
  /**
   * Runs a parameterless script (one or more statements) on one connection, outside any other transaction, and
   * returns the rows of its last statement; a script that fails inside its own BEGIN is rolled back. The job
   * queue (pg-boss) installs itself and runs its maintenance this way.
   */
  runScript(script: string): Promise<{ rows: Record<string, unknown>[] }>;
  /** Resolves when the database answers a trivial query within `timeoutMs`. */
  ping(timeoutMs: number): Promise<void>;
  /**
   * Calls `onNotify(payload)` for each NOTIFY on `channel` once its transaction has committed; resolves with the
   * function that stops listening. The embedded database only: every transaction there is this process's own, so its
   * one session hears them all (PostgreSQL's other instances listen on a connection of their own, queue/wakeups.ts).
   */
  listenInProcess?(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Connections of the pool (PostgreSQL only; the embedded database has one), for the metrics. */
  poolUse?(): { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
}

export interface ScriptTransaction {
  db: Kysely<DB>;
  exec(script: string): Promise<void>;
}
