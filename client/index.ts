/**
 * A typed client for partner engineers, generated from the service's OpenAPI document: request bodies, query
 * parameters and responses are checked by the TypeScript compiler. It adds the headers every call needs
 * (a fresh X-Correlation-ID, client_id, client_secret).
 *
 *   const api = createPartnerClient({ baseUrl: 'https://…/v1', clientId, clientSecret });
 *   const { data, error } = await api.GET('/fundraisers', { params: { query: { channel: 'Storefront App', id: '10000001' } } });
 */
import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { paths } from './schema.js';

export interface PartnerClientOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Also send Authorization: Basic (for deployments that require it). */
  basicAuth?: boolean;
  fetch?: typeof fetch;
}

export function createPartnerClient(options: PartnerClientOptions): Client<paths> {
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  client.use({
    onRequest({ request }) {
      if (!request.headers.has('x-correlation-id')) request.headers.set('x-correlation-id', randomUUID());
      request.headers.set('client_id', options.clientId);
      request.headers.set('client_secret', options.clientSecret);
      if (options.basicAuth) {
        request.headers.set('authorization', `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`);
      }
      return request;
    },
  });
  return client;
}
