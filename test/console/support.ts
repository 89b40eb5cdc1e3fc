import { expect } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import type { TestApp } from '../helpers/test-app.js';

/** Signing in to the console of a test app and posting its forms, as a browser would. */
const PASSWORD = 'a long enough password';

export async function createOperator(t: TestApp, email: string, role: 'admin' | 'viewer') {
  const code = await runCli(['operators', 'create', email, '--role', role, '--password-stdin'], {
    database: t.database,
    env: {},
    defaultOperator: () => 'setup',
    readStdin: async () => `${PASSWORD}\n`,
    stdout: () => undefined,
    stderr: () => undefined,
  });
  expect(code).toBe(0);
}

/** Signs in through the form; the session cookie and the session's CSRF token (read from `page`). */
export async function signIn(t: TestApp, email: string, page = '/console') {
  const form = await t.app.inject({ method: 'GET', url: '/console/login' });
  const token = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
  const loginCookie = form.cookies.find((c) => c.name === 'console_login_csrf')!.value;
  const response = await t.app.inject({
    method: 'POST',
    url: '/console/login',
    cookies: { console_login_csrf: loginCookie },
    payload: new URLSearchParams({ _csrf: token, email, password: PASSWORD }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(response.statusCode).toBe(303);
  const session = response.cookies.find((c) => c.name === 'console_session')!.value;
  const shown = await getPage(t, session, page);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(shown.body)?.[1] ?? '';
  return { session, csrf };
}

export const getPage = (t: TestApp, session: string, url: string) =>
  t.app.inject({ method: 'GET', url, cookies: { console_session: session } });

export const postForm = (t: TestApp, session: string, url: string, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    cookies: { console_session: session },
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
