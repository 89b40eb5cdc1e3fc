import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceDeprecation } from '../../src/services/operators/deprecations.js';
import { InvalidInputError } from '../../src/services/operators/operator-errors.js';
import { createTestDatabase } from '../helpers/database.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;
const sunsetAt = new Date(Date.now() + 45 * DAY);
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let announcedAt: Date;
let t: TestApp;
const ctx = () => ({ db: database.db, operator: 'ops@foundation.example', now: () => new Date() });

// Announced before the app starts: the document is built at start, the headers follow within a minute.
beforeAll(async () => {
  database = await createTestDatabase();
  const announced = await announceDeprecation(ctx(), {
    routes: ['GET /remittances/{batchId}', 'GET /remittances'],
    sunsetAt,
    description: 'Read reports through the event log instead.',
    link: 'https://foundation.example/changes/remittance-reports',
  });
  announcedAt = new Date(announced.announced_at);
  t = await startTestApp({ database });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await database?.dispose();
}, 60_000);

describe('API deprecations', () => {
  it('refuses a sunset less than 30 days away, and a route not written as "GET /path"', async () => {
    await expect(
      announceDeprecation(ctx(), {
        routes: ['GET /remittances'],
        sunsetAt: new Date(Date.now() + 29 * DAY),
        description: 'Use the reports.',
      }),
    ).rejects.toThrow(/at least 30 days away/);
    await expect(
      announceDeprecation(ctx(), {
        routes: ['remittances'],
        sunsetAt: new Date(Date.now() + 60 * DAY),
        description: 'x',
      }),
    ).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('answers Deprecation and Sunset on a deprecated route, and marks it deprecated in the document', async () => {
    const response = await t.get('/remittances');
    expect(response.statusCode).toBe(200);
    expect(response.headers.deprecation).toBe(`@${Math.floor(announcedAt.getTime() / 1000)}`);
    expect(response.headers.sunset).toBe(sunsetAt.toUTCString());
    expect(response.headers.link).toBe(
      '<https://foundation.example/changes/remittance-reports>; rel="deprecation"; type="text/html"',
    );
    expect((await t.get('/ping')).headers.deprecation).toBeUndefined();

    const document = (await t.get('/openapi.json', { as: null })).json();
    expect(document.paths['/remittances'].get.deprecated).toBe(true);
    expect(document.paths['/remittances'].get.description).toContain(`stops on ${sunsetAt.toISOString().slice(0, 10)}`);
    expect(document.paths['/remittances/{batchId}'].get.deprecated).toBe(true);
    expect(document.paths['/donations'].post.deprecated).toBeUndefined();
  });
});
