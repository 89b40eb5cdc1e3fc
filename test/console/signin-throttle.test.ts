import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Console sign-in throttling by source address, beside the per-account lock
 * (docs/decisions/0044-operator-console-server-rendered.md).
 */
const EMAIL = 'ops@foundation.example';
const PASSWORD = 'a long enough password';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { CONSOLE_SIGNIN_FAILURES_PER_ADDRESS: '3' } });
  const code = await runCli(['operators', 'create', EMAIL, '--role', 'viewer', '--password-stdin'], {
    database: t.database,
    env: {},
    defaultOperator: () => 'setup',
    readStdin: async () => `${PASSWORD}\n`,
    stdout: () => undefined,
    stderr: () => undefined,
  });
  expect(code).toBe(0);
});
afterAll(() => t?.close());

async function signIn(email: string, password: string, remoteAddress: string) {
  const form = await t.app.inject({ method: 'GET', url: '/console/login', remoteAddress });
  const token = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
  const cookie = form.cookies.find((c) => c.name === 'console_login_csrf')!;
  return t.app.inject({
    method: 'POST',
    url: '/console/login',
    remoteAddress,
    cookies: { console_login_csrf: cookie.value },
    payload: new URLSearchParams({ _csrf: token, email, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

describe('console sign-in throttling by address', () => {
  it('refuses an address that failed too often, across accounts, even with the right password', async () => {
    const guesser = '203.0.113.7';
    for (const email of ['a@example.org', 'b@example.org', 'c@example.org'])
      expect((await signIn(email, 'wrong password!!', guesser)).statusCode).toBe(401);

    const refused = await signIn(EMAIL, PASSWORD, guesser);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain('Too many failed sign-ins from your address');
    expect(refused.cookies.find((c) => c.name === 'console_session')).toBeUndefined();
  });

  it('lets another address sign in meanwhile (the account itself is not locked)', async () => {
    const response = await signIn(EMAIL, PASSWORD, '198.51.100.20');
    expect(response.statusCode).toBe(303);
    expect(response.cookies.find((c) => c.name === 'console_session')).toBeDefined();
  });
});
