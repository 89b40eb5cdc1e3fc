import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import type { Database } from './connect.js';
import type { DB } from './schema.js';
import { takeStartupLock } from './startup-lock.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  script: string;
}

/** The versioned SQL files, `NNN_name.sql`, in version order. */
export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .map((file) => ({
      version: Number.parseInt(file, 10),
      name: file.replace(/\.sql$/, ''),
      script: readFileSync(join(dir, file), 'utf8'),
    }))
    .sort((a, b) => a.version - b.version);
}

/**
 * Applies the migrations not yet recorded in schema_migrations, each in its own transaction. Instances starting
 * together on one PostgreSQL server serialise on an advisory lock and re-check, so each migration runs once.
 */
export async function migrate(database: Database, migrations = listMigrations()): Promise<string[]> {
  // Under the lock too: two `create table if not exists` racing each other fail on PostgreSQL's catalogue keys.
  await database.scriptTransaction(async (tx) => {
    await takeStartupLock(tx.db);
    await sql`create table if not exists schema_migrations (
      version integer primary key, name text not null, applied_at timestamptz not null default now())`.execute(tx.db);
  });
  const applied: string[] = [];
  for (const migration of migrations) {
    await database.scriptTransaction(async (tx) => {
      await takeStartupLock(tx.db);
      const done = await sql`select 1 from schema_migrations where version = ${migration.version}`.execute(tx.db);
      if (done.rows.length > 0) return;
      await tx.exec(migration.script);
      await sql`insert into schema_migrations (version, name) values (${migration.version}, ${migration.name})`.execute(
        tx.db,
      );
      applied.push(migration.name);
    });
  }
  return applied;
}

/** The migrations not applied yet (all of them on an empty database), without applying any. */
export async function pendingMigrations(database: Database, migrations = listMigrations()): Promise<string[]> {
  const exists = await sql<{
    present: string | null;
  }>`select to_regclass('schema_migrations')::text as present`.execute(database.db);
  if (!exists.rows[0]?.present) return migrations.map((m) => m.name);
  const { rows } = await sql<{ version: number }>`select version from schema_migrations`.execute(database.db);
  const applied = new Set(rows.map((row) => Number(row.version)));
  return migrations.filter((m) => !applied.has(m.version)).map((m) => m.name);
}

/** The newest migration applied (0 on an empty schema). */
export async function schemaVersion(db: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{ version: number | null }>`select max(version) as version from schema_migrations`.execute(
    db,
  );
  return Number(rows[0]?.version ?? 0);
}
