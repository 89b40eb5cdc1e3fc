import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { CREDENTIAL_SELF_ROTATIONS_PER_DAY: '2', CREDENTIAL_CACHE_TTL_SECONDS: '0' } });
}, 180_000);
afterAll(async () => t?.close(), 60_000);

const pingAs = (pair: { clientId: string; clientSecret: string }) => t.get('/ping', { as: pair });
const rotateAs = (pair: { clientId: string; clientSecret: string }, key?: string) =>
  t.post('/credentials/rotate', {}, { as: pair, headers: key ? { 'idempotency-key': key } : {} });

describe('POST /credentials/rotate', () => {
  it('returns a new pair once and keeps the old one working for the 14-day overlap', async () => {
    const old = t.storefront;
    const key = randomUUID();
    const rotated = await rotateAs(old, key);
    expect(rotated.statusCode).toBe(201);
    expect(rotated.headers['cache-control']).toBe('no-store');
    const pair = rotated.json().data.items;
    expect(pair.previousClientId).toBe(old.clientId);
    expect(new Date(pair.previousExpiresAt).getTime() - Date.now()).toBeGreaterThan(13.9 * 86_400_000);
    expect((await pingAs(pair)).statusCode).toBe(200);
    expect((await pingAs(old)).statusCode).toBe(200);

    // A retry with the same key shows the same new secret; the partner never loses it to a dropped answer.
    const replay = await rotateAs(old, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data.items).toEqual(pair);
    // Without the key, the old pair is already rotated: rotate the new one.
    const again = await rotateAs(old);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.cause).toContain('was already rotated');

    // Past the overlap the old pair stops.
    const later = await t.db
      .selectFrom('credentials')
      .select('expires_at')
      .where('client_id', '=', old.clientId)
      .executeTakeFirstOrThrow();
    expect(new Date(later.expires_at!).toISOString()).toBe(pair.previousExpiresAt);
  });

  it('throttles a partner’s rotations to CREDENTIAL_SELF_ROTATIONS_PER_DAY in 24 hours', async () => {
    const first = (await rotateAs(t.registration)).json().data.items;
    const second = await rotateAs(first);
    expect(second.statusCode).toBe(201);
    const third = await rotateAs(second.json().data.items);
    expect(third.statusCode).toBe(429);
    expect(third.json().error.code).toBe('FUNDRAISER:RATE_LIMIT');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(86_000);
  });

  it('is audited with the partner as actor, never the secret', async () => {
    const entries = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'credential.rotate')
      .where('actor', 'like', 'partner:%')
      .execute();
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(entries)).not.toMatch(/clientSecret|[A-Z0-9]{52}/);
  });
});
