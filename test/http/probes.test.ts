import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { running } from '../../src/http/lifecycle.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('probes outside the base path, without credentials', () => {
  it('GET /livez answers UP', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/livez' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'UP' });
  });

  it('GET /readyz answers UP when the database answers and every migration is applied', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'UP',
      checks: { database: 'UP', migrations: 'UP', redis: 'NOT_CONFIGURED', accepting: 'UP' },
    });
  });

  it('GET /readyz answers 503 DOWN with Retry-After while a migration is pending', async () => {
    const last = await sql<{ version: number; name: string }>`
      select version, name from schema_migrations order by version desc limit 1`.execute(t.db);
    const { version, name } = last.rows[0]!;
    await sql`delete from schema_migrations where version = ${version}`.execute(t.db);
    try {
      const response = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toMatchObject({ status: 'DOWN', checks: { database: 'UP', migrations: 'DOWN' } });
    } finally {
      await sql`insert into schema_migrations (version, name) values (${version}, ${name})`.execute(t.db);
    }
  });

  it('the seed’s /health stays secured under the base path', async () => {
    const response = await t.get('/health', { as: null });
    expect(response.statusCode).toBe(401);
  });
});

describe('probes when the database is gone', () => {
  it('GET /readyz answers 503 with database DOWN, /livez still UP', async () => {
    const other = await startTestApp();
    await other.database.close();
    try {
      const ready = await other.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.database).toBe('DOWN');
      expect((await other.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    } finally {
      // Closes the app and drops its scratch database (its connections are closed already).
      await other.close();
    }
  });

  it('while shutting down: /readyz answers 503 with accepting DOWN, then every answer carries Connection: close', async () => {
    const lifecycle = running();
    const stopping = await startTestApp({ deps: { lifecycle } });
    try {
      const before = await stopping.app.inject({ method: 'GET', url: '/readyz' });
      expect(before.statusCode).toBe(200);
      expect(before.headers.connection).not.toBe('close');

      lifecycle.stopping = true; // SIGTERM: load balancers are told first, connections are still served as usual
      const ready = await stopping.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.json()).toEqual({
        status: 'DOWN',
        checks: { database: 'UP', migrations: 'UP', redis: 'NOT_CONFIGURED', accepting: 'DOWN' },
      });
      expect(ready.headers.connection).not.toBe('close');
      const served = await stopping.call('GET', '/ping');
      expect(served.statusCode).toBe(200);
      expect(served.headers.connection).not.toBe('close');

      lifecycle.closingConnections = true; // the listener is closed: keep-alive clients are asked to leave
      const last = await stopping.call('GET', '/ping');
      expect(last.statusCode).toBe(200);
      expect(last.headers.connection).toBe('close');
    } finally {
      await stopping.close();
    }
  });
});
