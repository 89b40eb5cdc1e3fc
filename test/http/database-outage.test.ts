import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { connectDatabase } from '../../src/infrastructure/db/connect.js';
import { seedDemoData } from '../../src/services/sandbox/demo-data.js';
import { createTestDatabase, usingPostgres } from '../helpers/database.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

const config = loadConfig({ LOG_LEVEL: 'silent', CREDENTIAL_CACHE_TTL_SECONDS: '60' });
const headers = (id: string, secret: string) => ({
  'x-correlation-id': crypto.randomUUID(),
  client_id: id,
  client_secret: secret,
});

describe('a database that cannot be reached', () => {
  it('gives 503 FUNDRAISER:UNAVAILABLE with Retry-After, promptly, never a crash', async () => {
    const database = await connectDatabase({
      databaseUrl: 'postgres://postgres@127.0.0.1:1/unreachable',
      connectTimeoutMs: 500,
    });
    const app = await buildApp({ config, database, logger: false });
    try {
      const started = Date.now();
      const response = await app.inject({ method: 'GET', url: '/v1/ping', headers: headers('sit_x', 'y') });
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toMatchObject({
        code: 'FUNDRAISER:UNAVAILABLE',
        message: 'Service temporarily unavailable',
      });
      expect(response.json().error.cause).toBeUndefined();
      expect(response.headers['retry-after']).toBe('5');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

// Cutting a live connection needs a server behind a proxy: this part runs on the PostgreSQL suite.
describe.runIf(usingPostgres())('an outage of a PostgreSQL server', () => {
  let backing: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let credentials: { clientId: string; clientSecret: string };
  beforeAll(async () => {
    backing = await createTestDatabase();
    credentials = (await seedDemoData(backing.db, 'sit', { limit: 1000, windowSeconds: 60 }))![0]!;
    const target = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  });
  afterAll(async () => {
    await proxy.close();
    await backing.dispose();
  });

  it('turns /health DOWN and requests to 503 while it lasts, and recovers without a restart', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.port = String(proxy.port);
    url.pathname = new URL(backing.location).pathname;
    const database = await connectDatabase({
      databaseUrl: url.toString(),
      connectTimeoutMs: 500,
      statementTimeoutMs: 2000,
    });
    const app = await buildApp({ config, database, logger: false });
    const call = (path: string) =>
      app.inject({
        method: 'GET',
        url: `/v1${path}`,
        headers: headers(credentials.clientId, credentials.clientSecret),
      });
    try {
      expect((await call('/fundraisers?channel=Storefront%20App&id=10000001')).statusCode).toBe(200);
      proxy.cut();
      const health = await call('/health');
      expect(health.statusCode).toBe(503);
      expect(health.json().serviceHealth.status).toBe('DOWN');
      // A look-up the database must answer fails fast with 503. (A fundraiser confirmed within the last
      // ENROLMENT_CACHE_TTL_MS may still answer from memory: that is the documented bounded staleness.)
      const refused = await call('/fundraisers?channel=Storefront%20App&id=10000002');
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error.code).toBe('FUNDRAISER:UNAVAILABLE');
      proxy.restore();
      expect((await call('/health')).json().serviceHealth.status).toBe('UP');
      expect((await call('/fundraisers?channel=Storefront%20App&id=10000001')).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
