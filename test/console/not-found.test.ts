import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createOperator, getPage, signIn } from './support.js';

/**
 * Unknown console addresses, asked as a browser asks (no partner header, no X-Correlation-ID): the console's own 404
 * page, signed in or not, whatever the method; never the API's refusal, never a 500.
 */
const UNKNOWN = ['/console/no-such-page', '/console/a/b/c', '/console/static/nothing.css', '/console/partners/x/y/z'];

describe('unknown console addresses', () => {
  let t: TestApp;
  let session: string;
  beforeAll(async () => {
    t = await startTestApp();
    await createOperator(t, 'nf@foundation.example', 'viewer');
    ({ session } = await signIn(t, 'nf@foundation.example'));
  });
  afterAll(() => t?.close());

  const expectNotFoundPage = (response: Awaited<ReturnType<TestApp['app']['inject']>>, url: string) => {
    expect(response.statusCode, url).toBe(404);
    expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
    expect(response.body, url).toContain('<title>Not found · Fundraiser console</title>');
    expect(response.body, url).toContain('There is no such page in the console.');
    expect(response.body, url).toContain('href="/console/static/console.css"');
    expect(response.body, url).not.toContain('X-Correlation-ID');
  };

  it('answers the 404 page to a visitor who is not signed in', async () => {
    for (const url of UNKNOWN) {
      const response = await t.app.inject({ method: 'GET', url });
      expectNotFoundPage(response, url);
      expect(response.body, url).not.toContain('aria-label="Main"');
    }
  });

  it('answers the 404 page, with the navigation, to a signed-in operator', async () => {
    for (const url of UNKNOWN) {
      const response = await getPage(t, session, url);
      expectNotFoundPage(response, url);
      expect(response.body, url).toContain('aria-label="Main"');
    }
  });

  it('answers the 404 page to other methods and to HEAD, and known pages still work without the header', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
      const response = await t.app.inject({
        method,
        url: '/console/no-such-page',
        cookies: { console_session: session },
      });
      expectNotFoundPage(response, `${method} /console/no-such-page`);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/console/no-such-page' });
    expect(head.statusCode).toBe(404);
    expect((await getPage(t, session, '/console/partners')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/console/login' })).statusCode).toBe(200);
    const css = await t.app.inject({ method: 'GET', url: '/console/static/console.css' });
    expect(css.statusCode).toBe(200);
  });

  it('leaves the partner API as it was: an unknown API address without the header is still refused', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/no-such-resource' });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.headers['content-type']).toContain('application/json');
  });
});
