import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Caller, type TestApp } from '../helpers/test-app.js';
import { cli, ok, type Cli } from './harness.js';

const DAY = 86_400_000;

/**
 * Credentials issued and rotated with the CLI, checked against the real service on the same database. The
 * service's credential cache is off (TTL 0) so each request sees the stored state; both share one clock.
 */
let t: TestApp;
let run: Cli;
beforeAll(async () => {
  t = await startTestApp({ env: { CREDENTIAL_CACHE_TTL_SECONDS: '0' } });
  run = cli({ database: t.database, now: t.clock.now, operator: 'ops-anna' });
});
afterAll(async () => t.close());

const pair = (issued: { clientId: string; clientSecret: string }): Caller => ({
  clientId: issued.clientId,
  clientSecret: issued.clientSecret,
});
const ping = async (as: Caller) => (await t.get('/ping', { as })).statusCode;

async function onboard(name: string): Promise<Caller> {
  await ok(run, 'partners', 'create', name, '--channel', 'Storefront App');
  return pair(await ok(run, 'credentials', 'issue', name));
}

describe('credentials', () => {
  it('issues a pair that works at once; the secret is printed once and only its hash is stored', async () => {
    await ok(run, 'partners', 'create', 'Issuer Co', '--channel', 'Storefront App');
    const result = await run('credentials', 'issue', 'Issuer Co');
    expect(result.code).toBe(0);
    const [, clientId] = /client_id\s+│ (\S+)/.exec(result.stdout)!;
    const [, clientSecret] = /client_secret\s+│ (\S+)/.exec(result.stdout)!;
    expect(result.stdout).toContain('shown only this once');
    expect(await ping({ clientId: clientId!, clientSecret: clientSecret! })).toBe(200);

    const row = await t.db
      .selectFrom('credentials')
      .selectAll()
      .where('client_id', '=', clientId!)
      .executeTakeFirstOrThrow();
    expect(row.environment).toBe('sit');
    expect(row.secret_hash).toMatch(/^sha256\$[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(clientSecret);
    // Neither the listing nor the audit log ever shows it again.
    expect((await run('credentials', 'list', '--partner', 'Issuer Co')).stdout).not.toContain(clientSecret);
    expect(JSON.stringify(await ok(run, 'credentials', 'list'))).not.toContain(clientSecret);
    expect(JSON.stringify(await ok(run, 'audit', 'list'))).not.toContain(clientSecret);
    const [entry] = await ok(run, 'audit', 'list', '--subject', clientId!);
    expect(entry).toMatchObject({
      actor: 'ops-anna',
      action: 'credential.issue',
      details: { partner: 'Issuer Co', environment: 'sit' },
    });
  });

  it('lists credentials without secrets: id, environment, state, created, expires, revoked, last used', async () => {
    const caller = await onboard('Lister Co');
    expect(await ping(caller)).toBe(200);
    const [listed] = await ok(run, 'credentials', 'list', '--partner', 'Lister Co');
    expect(Object.keys(listed).sort()).toEqual(
      [
        'clientId',
        'createdAt',
        'environment',
        'expiresAt',
        'lastUsedAt',
        'partner',
        'partnerId',
        'partnerStatus',
        'replacedBy',
        'revokedAt',
        'state',
      ].sort(),
    );
    expect(listed).toMatchObject({
      clientId: caller.clientId,
      environment: 'sit',
      state: 'active',
      expiresAt: null,
      revokedAt: null,
    });
    // The service records use off the request path; give it a moment to land.
    await expect
      .poll(async () => (await ok(run, 'credentials', 'list', '--partner', 'Lister Co'))[0].lastUsedAt, {
        timeout: 10_000,
      })
      .not.toBeNull();
  });

  it('a pair issued for another environment does not work here', async () => {
    await ok(run, 'partners', 'create', 'Prod Co', '--channel', 'Storefront App');
    const result = await run('credentials', 'issue', 'Prod Co', '--env', 'production', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stderr).warnings).toEqual([expect.stringContaining('this deployment runs as sit')]);
    expect(await ping(pair(result.json()))).toBe(401);
  });

  it('rotation: old and new pairs both work inside the overlap window; the old one stops after it', async () => {
    const old = await onboard('Rotating Co');
    const rotated = await ok(run, 'credentials', 'rotate', old.clientId);
    const fresh = pair(rotated.issued);
    expect(rotated.previous).toMatchObject({ clientId: old.clientId, state: 'retiring', replacedBy: fresh.clientId });
    expect(new Date(rotated.previous.expiresAt).getTime()).toBe(t.clock.current.getTime() + 14 * DAY);

    expect([await ping(old), await ping(fresh)]).toEqual([200, 200]);
    t.clock.advance(14 * DAY - 60_000);
    expect([await ping(old), await ping(fresh)]).toEqual([200, 200]);
    t.clock.advance(60_000);
    expect([await ping(old), await ping(fresh)]).toEqual([401, 200]);
    expect(
      (await ok(run, 'credentials', 'list', '--partner', 'Rotating Co')).map((c: { state: string }) => c.state),
    ).toEqual(['expired', 'active']);

    const [entry] = await ok(run, 'audit', 'list', '--action', 'credential.rotate', '--subject', old.clientId);
    expect(entry.details).toMatchObject({ newClientId: fresh.clientId, overlapDays: 14 });
  });

  it('rotation takes a configurable overlap, and a retiring pair cannot be rotated again', async () => {
    const old = await onboard('Short Overlap Co');
    const rotated = await ok(run, 'credentials', 'rotate', old.clientId, '--overlap-days', '2');
    t.clock.advance(2 * DAY - 1000);
    expect(await ping(old)).toBe(200);
    const again = await run('credentials', 'rotate', old.clientId);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`was already rotated (replaced by ${rotated.issued.clientId})`);
    t.clock.advance(1000);
    expect(await ping(old)).toBe(401);
    expect((await run('credentials', 'rotate', old.clientId, '--overlap-days', '0')).code).toBe(2);
  });

  it('emergency rotation: the old pair stops at once and the new one works', async () => {
    const old = await onboard('Leaky Co');
    const rotated = await ok(
      run,
      'credentials',
      'emergency-rotate',
      old.clientId,
      '--reason',
      'secret pasted in a public issue',
    );
    expect([await ping(old), await ping(pair(rotated.issued))]).toEqual([401, 200]);
    expect(rotated.previous).toMatchObject({ state: 'revoked', replacedBy: rotated.issued.clientId });
    const [entry] = await ok(run, 'audit', 'list', '--action', 'credential.emergency_rotate');
    expect(entry).toMatchObject({
      subject: old.clientId,
      actor: 'ops-anna',
      details: { reason: 'secret pasted in a public issue' },
    });
  });

  it('revocation stops a pair at once, even inside a rotation overlap, and warns when none is left', async () => {
    const old = await onboard('Revoked Co');
    const rotated = await ok(run, 'credentials', 'rotate', old.clientId);
    const revokeOld = await run('credentials', 'revoke', old.clientId);
    expect(revokeOld.code).toBe(0);
    expect(revokeOld.stderr).toBe('');
    expect(await ping(old)).toBe(401);

    const revokeNew = await run('credentials', 'revoke', rotated.issued.clientId, '--json');
    expect(revokeNew.code).toBe(0);
    expect(revokeNew.json()).toMatchObject({ state: 'revoked', usableLeft: 0 });
    expect(JSON.parse(revokeNew.stderr).warnings).toEqual([
      expect.stringContaining('has no usable credentials left in sit'),
    ]);
    expect(await ping(pair(rotated.issued))).toBe(401);
    expect((await run('credentials', 'revoke', old.clientId)).stderr).toContain('is already revoked');
  });

  it('suspension: every credential of the partner gets 401; reactivation restores them', async () => {
    const first = await onboard('Suspended Co');
    const second = pair(await ok(run, 'credentials', 'issue', 'Suspended Co'));
    await ok(run, 'partners', 'suspend', 'Suspended Co');
    expect([await ping(first), await ping(second)]).toEqual([401, 401]);
    const fundraisers = await t.get('/fundraisers', {
      as: first,
      query: { channel: 'Storefront App', id: '10000001' },
    });
    expect(fundraisers.statusCode).toBe(401);
    expect(fundraisers.json().error.code).toBe('FUNDRAISER:UNAUTHORIZED');
    await ok(run, 'partners', 'reactivate', 'Suspended Co');
    expect([await ping(first), await ping(second)]).toEqual([200, 200]);
  });

  it('reports pairs due for the annual rotation, soonest first, overdue included', async () => {
    const caller = await onboard('Annual Co');
    const issuedAt = (
      await t.db
        .selectFrom('credentials')
        .select('created_at')
        .where('client_id', '=', caller.clientId)
        .executeTakeFirstOrThrow()
    ).created_at;
    const at = (days: number) => (t.clock.current = new Date(issuedAt.getTime() + days * DAY));
    // Other tests' pairs are due too; this one's are the subject here.
    const dueOfAnnual = async (...argv: string[]) =>
      (await ok(run, 'credentials', 'due', ...argv)).filter((c: { partner: string }) => c.partner === 'Annual Co');

    at(300);
    expect(await dueOfAnnual('--within', '30')).toEqual([]);
    at(340);
    const due = await dueOfAnnual('--within', '30');
    expect(due).toEqual([expect.objectContaining({ clientId: caller.clientId, partner: 'Annual Co', daysLeft: 25 })]);
    expect(new Date(due[0].dueAt).getTime()).toBe(issuedAt.getTime() + 365 * DAY);
    expect(await dueOfAnnual('--within', '20')).toEqual([]);
    at(370);
    expect((await dueOfAnnual('--within', '0'))[0]).toMatchObject({ clientId: caller.clientId, daysLeft: -5 });
    expect((await run('credentials', 'due', '--within', '0')).stdout).toContain('5 overdue');

    // Once rotated, the old pair is no longer due.
    await ok(run, 'credentials', 'rotate', caller.clientId);
    expect((await dueOfAnnual('--within', '0')).map((c: { clientId: string }) => c.clientId)).not.toContain(
      caller.clientId,
    );
  });

  it('refuses unknown credentials and environments clearly', async () => {
    const unknown = await run('credentials', 'rotate', 'sit_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('Error: No credential with client_id "sit_nope" (see "credentials list").\n');
    const badEnv = await run('credentials', 'issue', 'Issuer Co', '--env', 'prod');
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('Allowed choices are sit, uat, staging, production');
  });
});
