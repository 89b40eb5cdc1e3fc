import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { registerEndpoint } from '../webhooks/support.js';

/**
 * The console's webhook pages (docs/decisions/0044-operator-console-server-rendered.md): every partner's endpoints,
 * deliveries, disable/enable, replay.
 */
const ADMIN = 'admin@foundation.example';
const VIEWER = 'viewer@foundation.example';
const PASSWORD = 'a long enough password';

let t: TestApp;
let endpointId: string;

async function createOperator(email: string, role: 'admin' | 'viewer') {
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

/** Signs in through the form; answers the session cookie and the session's CSRF token. */
async function signIn(email: string) {
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
  const page = await t.app.inject({ method: 'GET', url: '/console/webhooks', cookies: { console_session: session } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
  return { session, csrf };
}

const getPage = (session: string, url: string) =>
  t.app.inject({ method: 'GET', url, cookies: { console_session: session } });

const postForm = (session: string, url: string, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    cookies: { console_session: session },
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

beforeAll(async () => {
  t = await startTestApp();
  await createOperator(ADMIN, 'admin');
  await createOperator(VIEWER, 'viewer');
  endpointId = (await registerEndpoint(t, 'http://127.0.0.1:9/hooks')).id;
});
afterAll(() => t?.close());

describe('console webhook pages', () => {
  it('lists every partner’s endpoints and shows one with its deliveries', async () => {
    const { session } = await signIn(VIEWER);
    const list = await getPage(session, '/console/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`/console/webhooks/${endpointId}`);
    expect(list.body).toContain('http://127.0.0.1:9/hooks');
    expect(list.body).toContain('Demo Storefront Partner');

    const test = await t.post(`/webhook-endpoints/${endpointId}/test`, undefined);
    expect(test.statusCode).toBe(202);
    const detail = await getPage(session, `/console/webhooks/${endpointId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('webhook.test');
    expect(detail.body).toContain('Your role (viewer) can read but not change webhook endpoints');
    expect(detail.body).not.toContain('Disable this endpoint');
  });

  it('lets a viewer change nothing', async () => {
    const { session, csrf } = await signIn(VIEWER);
    const refused = await postForm(session, `/console/webhooks/${endpointId}/disable`, { _csrf: csrf, reason: 'x' });
    expect(refused.statusCode).toBe(403);
    expect((await t.get(`/webhook-endpoints/${endpointId}`)).json().data.items.status).toBe('enabled');
  });

  it('refuses a change posted without the session’s CSRF token', async () => {
    const { session } = await signIn(ADMIN);
    const refused = await postForm(session, `/console/webhooks/${endpointId}/disable`, { reason: 'forged' });
    expect(refused.statusCode).toBe(403);
    expect((await t.get(`/webhook-endpoints/${endpointId}`)).json().data.items.status).toBe('enabled');
  });

  it('lets an admin disable with a reason the partner sees, enable again, and replay an event', async () => {
    const { session, csrf } = await signIn(ADMIN);
    const noReason = await postForm(session, `/console/webhooks/${endpointId}/disable`, { _csrf: csrf, reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('must say why');

    const disabled = await postForm(session, `/console/webhooks/${endpointId}/disable`, {
      _csrf: csrf,
      reason: 'Receiver answers 500 since Tuesday',
    });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.body).toContain('Enable this endpoint');
    expect((await t.get(`/webhook-endpoints/${endpointId}`)).json().data.items).toMatchObject({
      status: 'disabled',
      disabledReason: 'Receiver answers 500 since Tuesday',
    });

    const enabled = await postForm(session, `/console/webhooks/${endpointId}/enable`, { _csrf: csrf });
    expect(enabled.statusCode).toBe(200);
    expect((await t.get(`/webhook-endpoints/${endpointId}`)).json().data.items.status).toBe('enabled');

    const { eventId } = (await t.post(`/webhook-endpoints/${endpointId}/test`, undefined)).json().data.items;
    const replayed = await postForm(session, `/console/webhooks/${endpointId}/replay`, { _csrf: csrf, eventId });
    expect(replayed.statusCode).toBe(200);
    expect(replayed.body).toContain(`Event ${eventId} is queued again`);
    const deliveries = (await t.get(`/webhook-endpoints/${endpointId}/deliveries`)).json().data.items;
    expect(deliveries.filter((d: { eventId: string }) => d.eventId === eventId)).toHaveLength(2);

    const unknown = await postForm(session, `/console/webhooks/${endpointId}/replay`, {
      _csrf: csrf,
      eventId: 'evt_nope',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('No event with id');
  });
});
