import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logging.js';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

const lines: Record<string, unknown>[] = [];
let t: TestApp;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  t = await startTestApp({ deps: { logger: createLogger('debug', stream) } });
});
afterAll(async () => t?.close());

const linesOf = (correlationId: string) => lines.filter((line) => line.correlationId === correlationId);

describe('request log lines', () => {
  it('name the partner and the correlation id, on the access line and on the error handler’s', async () => {
    const ok = randomUUID();
    expect((await t.get('/ping', { correlationId: ok })).statusCode).toBe(200);
    const refused = randomUUID();
    const invalid = { ...donationBody(), transaction: { id: 'x', date: 'yesterday', amount: '-1' } };
    expect((await t.post('/donations', invalid, { correlationId: refused })).statusCode).toBe(400);

    const access = linesOf(ok).find((line) => line.msg === 'request completed');
    expect(access).toMatchObject({ correlationId: ok, partnerId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const failed = linesOf(refused);
    expect(failed.length).toBeGreaterThanOrEqual(2);
    for (const line of failed) expect(line.partnerId).toBe(access!.partnerId);
  });

  it('a request refused before authentication still carries its correlation id', async () => {
    const id = randomUUID();
    expect((await t.get('/ping', { as: null, correlationId: id })).statusCode).toBe(401);
    const access = linesOf(id).find((line) => line.msg === 'request completed');
    expect(access).toMatchObject({ correlationId: id });
    expect(access!.partnerId).toBeUndefined();
  });
});
