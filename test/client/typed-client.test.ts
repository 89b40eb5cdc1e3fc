import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient } from '../../client/index.js';
import { CLIENT_TYPES_FILE, OPENAPI_FILE, renderOpenApi } from '../../scripts/export-openapi.js';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => t.close());

describe('the typed client (client/)', () => {
  it('is generated from the current routes: openapi.json and client/schema.d.ts are up to date', async () => {
    const { json, types } = await renderOpenApi();
    expect(readFileSync(OPENAPI_FILE, 'utf8'), 'run `npm run openapi`').toBe(json);
    expect(readFileSync(CLIENT_TYPES_FILE, 'utf8'), 'run `npm run openapi`').toBe(types);
  });

  it('calls the real server with credentials and a fresh correlation id per request', async () => {
    const api = createPartnerClient({ baseUrl, clientId: t.storefront.clientId, clientSecret: t.storefront.clientSecret });
    const check = await api.GET('/fundraisers', { params: { query: { channel: 'Storefront App', id: '10000001' } } });
    expect(check.response.status).toBe(200);
    expect(check.data?.data.items.name).toBe('Riverside Junior Football Club');

    const donation = await api.POST('/donations', { body: donationBody() });
    expect(donation.data?.data.items.donationReferenceId).toMatch(/^DON-/);
    expect(donation.data?.correlationId).not.toBe(check.data?.correlationId);
  });

  it('exposes errors as the typed error envelope', async () => {
    const api = createPartnerClient({ baseUrl, clientId: t.storefront.clientId, clientSecret: t.storefront.clientSecret, basicAuth: true });
    const { error, response } = await api.GET('/accounts/{id}', { params: { path: { id: 'nobody' }, query: { channel: 'Storefront App' } } });
    expect(response.status).toBe(404);
    expect(error?.error.code).toBe('ACCOUNT:NOT_FOUND');
  });
});
