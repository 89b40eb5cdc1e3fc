import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPartnerRequests } from '../../src/infrastructure/repositories/partner-requests.js';
import { createTestDatabase } from '../helpers/database.js';
import { cli, ok, type Cli } from './harness.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let run: Cli;
const failed = randomUUID();
beforeAll(async () => {
  database = await createTestDatabase();
  run = cli({ database, operator: 'alice' });
  const ours = await ok(run, 'partners', 'create', 'Logged Co', '--channel', 'Storefront App');
  const theirs = await ok(run, 'partners', 'create', 'Other Co', '--channel', 'Storefront App');
  const row = (partnerId: string, status: number, correlationId: string, minutesAgo: number) => ({
    partner_id: partnerId,
    at: new Date(Date.now() - minutesAgo * 60_000),
    method: 'POST',
    route: '/v1/donations',
    status,
    error_code: status >= 400 ? 'FUNDRAISER:VALIDATION' : null,
    error_cause: status >= 400 ? 'transaction.amount: must be greater than 0' : null,
    latency_us: 1500,
    correlation_id: correlationId,
    client_id: 'sit_logged',
    environment: 'sit',
    request_body: '{"donor":{"email":"[masked]"}}',
    response_body: '{}',
  });
  await insertPartnerRequests(database.db, [
    row(ours.id, 200, randomUUID(), 3),
    row(ours.id, 400, failed, 2),
    row(ours.id, 200, randomUUID(), 1),
    row(theirs.id, 400, randomUUID(), 1),
  ]);
});
afterAll(async () => database.dispose());

describe('partners requests', () => {
  it('lists a partner’s requests newest first, and only its own', async () => {
    const all = await ok(run, 'partners', 'requests', 'Logged Co');
    expect(all).toHaveLength(3);
    expect(all.map((r: { status: number }) => r.status)).toEqual([200, 400, 200]);
  });

  it('finds a call by its correlation id, or by its status class', async () => {
    const [one] = await ok(run, 'partners', 'requests', 'Logged Co', '--correlation-id', failed);
    expect(one).toMatchObject({
      status: 400,
      errorCode: 'FUNDRAISER:VALIDATION',
      errorCause: 'transaction.amount: must be greater than 0',
      latencyMs: 1.5,
      clientId: 'sit_logged',
    });
    expect(one.requestBody).toBeUndefined();
    expect(await ok(run, 'partners', 'requests', 'Logged Co', '--status', '4xx')).toHaveLength(1);
    const table = await run('partners', 'requests', 'Logged Co', '--status', '4xx');
    expect(table.stdout).toContain(failed);
    expect(table.stdout).toContain('FUNDRAISER:VALIDATION');
  });

  it('refuses a status that is neither a status nor a class, and an unknown partner', async () => {
    const bad = await run('partners', 'requests', 'Logged Co', '--status', 'oops');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--status');
    const unknown = await run('partners', 'requests', 'Nobody Co');
    expect(unknown.code).not.toBe(0);
  });
});
