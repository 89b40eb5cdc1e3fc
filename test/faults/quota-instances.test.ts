import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/http/route-context.js';
import { insertPartner } from '../../src/infrastructure/repositories/partners.js';
import { issueCredential } from '../../src/services/issue-credential.js';
import { usingPostgres } from '../helpers/database.js';
import { startTestApp, type Caller, type TestApp } from '../helpers/test-app.js';

const LIMIT = 100;
let first: TestApp;
let second: App;
let limited: Caller;
beforeAll(async () => {
  if (!usingPostgres()) return;
  first = await startTestApp();
  // A second instance on the same database: its own quota store, as a second process would have.
  second = await buildApp({ config: first.config, database: first.database, logger: false });
  const partner = await insertPartner(first.db, {
    name: `Exact quota ${randomUUID()}`,
    channels: ['Storefront App'],
    quotaLimit: LIMIT,
    quotaWindowSeconds: 3600,
  });
  limited = await issueCredential(first.db, partner.id, 'sit');
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

// Only PostgreSQL is shared by instances: an embedded data directory opens in one process, which counts its quotas
// itself (test/http/quota.test.ts).
describe.runIf(usingPostgres())('quota across two instances on one database', () => {
  it(`accepts exactly ${LIMIT} of ${LIMIT * 2.5} concurrent requests spread over both`, async () => {
    const ping = (app: App) =>
      app.inject({
        method: 'GET',
        url: '/v1/ping',
        headers: { 'x-correlation-id': randomUUID(), client_id: limited.clientId, client_secret: limited.clientSecret },
      });
    // Waves of 10 concurrent requests: concurrent enough to race, within the test database's pool of 5.
    const answers = [];
    for (let wave = 0; wave < (LIMIT * 2.5) / 10; wave += 1)
      answers.push(
        ...(await Promise.all(Array.from({ length: 10 }, (_, i) => ping(i % 2 === 0 ? first.app : second)))),
      );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT * 1.5);
    expect(first.app.quotaStore.state()).toMatchObject({ backend: 'postgres', mode: 'shared', fallbackDecisions: 0 });
  });
});
