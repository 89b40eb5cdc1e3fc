import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Database } from './connect.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant works; it only has to be the same for every instance migrating the same database.
const MIGRATION_LOCK_ID = 72_961_774;

export interface Migration { version: number; name: string; script: string }

/** The versioned SQL files, `NNN_name.sql`, in version order. */
export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .map((file) => ({ version: Number.parseInt(file, 10), name: file.replace(/\.sql$/, ''), script: readFileSync(join(dir, file), 'utf8') }))
    .sort((a, b) => a.version - b.version);
}

/**
 * Applies the migrations not yet recorded in schema_migrations, each in its own transaction. Instances starting
 * together on one PostgreSQL server serialise on an advisory lock and re-check, so each migration runs once.
 */
export async function migrate(database: Database, migrations = listMigrations()): Promise<string[]> {
  await sql`create table if not exists schema_migrations (
    version integer primary key, name text not null, applied_at timestamptz not null default now())`.execute(database.db);
  const applied: string[] = [];
  for (const migration of migrations) {
    await database.scriptTransaction(async (tx) => {
      if (database.kind === 'postgres') await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`.execute(tx.db);
      const done = await sql`select 1 from schema_migrations where version = ${migration.version}`.execute(tx.db);
      if (done.rows.length > 0) return;
      await tx.exec(migration.script);
      await sql`insert into schema_migrations (version, name) values (${migration.version}, ${migration.name})`.execute(tx.db);
      applied.push(migration.name);
    });
  }
  return applied;
}
