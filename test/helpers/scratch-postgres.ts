import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh database on the PostgreSQL server of `serverUrl`, for one test file, measurement or benchmark run: empty,
 * or a copy of `template` (a database nobody is connected to). `drop()` removes it, disconnecting anyone still on it.
 */
export async function createScratchPostgresDatabase(
  serverUrl: string,
  prefix = 'fx_test',
  template?: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
