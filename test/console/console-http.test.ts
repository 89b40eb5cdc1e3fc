import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { rejectionsSince } from '../../src/infrastructure/repositories/console-dashboard.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The console at the HTTP boundary (no browser): access, throttling, headers, the setting, refused-call counts. */
const EMAIL = 'ops@foundation.example';
const PASSWORD = 'a long enough password';

async function operators(t: TestApp, args: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['operators', ...args], {
    database: t.database,
    env: {},
    defaultOperator: () => 'setup',
    readStdin: async () => stdin,
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}

/** Signs in through the form: fetches it for the login CSRF cookie and token, then posts. */
async function signIn(t: TestApp, password: string) {
  const form = await t.app.inject({ method: 'GET', url: '/console/login' });
  const token = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
  const cookie = form.cookies.find((c) => c.name === 'console_login_csrf')!;
  return t.app.inject({
    method: 'POST',
    url: '/console/login',
    cookies: { console_login_csrf: cookie.value },
    payload: new URLSearchParams({ _csrf: token, email: EMAIL, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

describe('console over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    expect((await operators(t, ['create', EMAIL, '--role', 'viewer', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(
      0,
    );
  });
  afterAll(() => t?.close());

  it('sends a visitor without a session to the sign-in page, with strict security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/console/partners' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/console/login?next=%2Fconsole%2Fpartners');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    const page = await t.app.inject({ method: 'GET', url: String(response.headers.location) });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('sets an HttpOnly, SameSite=Strict session cookie on sign-in, and the session opens pages', async () => {
    const response = await signIn(t, PASSWORD);
    expect(response.statusCode).toBe(303);
    const session = response.cookies.find((c) => c.name === 'console_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
    const page = await t.app.inject({
      method: 'GET',
      url: '/console/audit',
      cookies: { console_session: session.value },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('operator.create');
  });

  it('locks an account after five wrong passwords, even against the right one, until reset-password', async () => {
    for (let i = 0; i < 4; i++) expect((await signIn(t, 'wrong password!!')).statusCode).toBe(401);
    const fifth = await signIn(t, 'wrong password!!');
    expect(fifth.body).toContain('locked');
    const right = await signIn(t, PASSWORD);
    expect(right.statusCode).toBe(401);
    expect(right.body).toContain('locked');

    const reset = await operators(t, ['reset-password', EMAIL, '--json']);
    expect(reset.code).toBe(0);
    const { password } = JSON.parse(reset.stdout) as { password: string };
    expect((await signIn(t, password)).statusCode).toBe(303);
  });

  it('refuses a disabled operator and a duplicate, and lists operators without their hashes', async () => {
    expect((await operators(t, ['create', EMAIL, '--role', 'admin'])).stderr).toContain('already exists');
    expect((await operators(t, ['disable', EMAIL, '--reason', 'left'])).code).toBe(0);
    const list = await operators(t, ['list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ email: EMAIL, status: 'disabled' })]);
    expect(list.stdout).not.toContain('scrypt');
    expect((await signIn(t, PASSWORD)).statusCode).toBe(401);
  });

  it('counts refused partner calls for the dashboard', async () => {
    await t.get('/fundraisers', {
      query: { channel: 'Storefront App', id: '10000001' },
      as: { clientId: 'x', clientSecret: 'y' },
    });
    await t.app.close(); // flushes the counts
    const counts = await rejectionsSince(t.db, '2000-01-01');
    expect(counts).toEqual([expect.objectContaining({ kind: 'authentication', partnerName: null, count: 1 })]);
  });
});

describe('CONSOLE_ENABLED=false', () => {
  it('serves no console', async () => {
    const t = await startTestApp({ env: { CONSOLE_ENABLED: 'false' } });
    try {
      // Answered like any unknown path of the API: its JSON envelope (here: the missing correlation id first).
      const response = await t.app.inject({ method: 'GET', url: '/console/login' });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/json');
    } finally {
      await t.close();
    }
  });
});
