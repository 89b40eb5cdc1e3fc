import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A query string only carries text, and the validator does not coerce types: every route that declares an integer
 * query parameter must take it written as an integer. The routes are read from the app's own OpenAPI document, so
 * a route added later is walked too.
 */

interface Schema {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  examples?: unknown[];
  enum?: unknown[];
}
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: Schema;
  example?: unknown;
}
interface Operation {
  parameters?: Parameter[];
  servers?: { url: string }[];
}
interface Case {
  method: string;
  path: string;
  operation: Operation;
  parameter: Parameter;
}

let t: TestApp;
let cases: Case[];
/** Ids of the calling partner's own resources, by path parameter name, so that each route answers its 200. */
const pathValues: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  const document = (await t.get('/openapi.json', { as: null, correlationId: null })).json<{
    paths: Record<string, Record<string, Operation>>;
  }>();
  cases = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'query' && integerMember(parameter.schema) !== undefined)
        .map((parameter) => ({ method: method.toUpperCase(), path, operation, parameter })),
    ),
  );
  const endpoint = await t.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
  expect(endpoint.statusCode, endpoint.body).toBe(201);
  pathValues.id = endpoint.json().data.items.id;
  const batch = await t.post('/remittances', {
    source: { channel: 'Storefront App', fundraiserId: '10000001' },
    remittances: [{ bankReferenceId: `B-${randomUUID()}`, amount: 1, donationIds: ['DON-UNKNOWN'] }],
  });
  expect(batch.statusCode, batch.body).toBe(202);
  pathValues.batchId = batch.json().data.items.batchId;
}, 180_000);
afterAll(async () => t?.close(), 60_000);

/** The member of a parameter's schema that takes an integer (itself, or one of a union's), if any. */
function integerMember(schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  if (schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'))) return schema;
  for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    const found = integerMember(member);
    if (found) return found;
  }
  return undefined;
}

/** A value the document itself offers for a required parameter that is not the one under test. */
function documentedValue(parameter: Parameter): string {
  const value =
    parameter.example ?? parameter.schema.examples?.[0] ?? parameter.schema.default ?? parameter.schema.enum?.[0];
  if (value === undefined) throw new Error(`no documented value for the required query parameter ${parameter.name}`);
  return String(value);
}

/** The request of `c` with its integer parameter set to `text`, as a partner with real credentials sends it. */
function send(c: Case, text: string) {
  const path = c.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = pathValues[name];
    if (value === undefined) throw new Error(`${c.method} ${c.path}: add a real value for {${name}} to pathValues`);
    return value;
  });
  const query = new URLSearchParams([[c.parameter.name, text]]);
  for (const other of c.operation.parameters ?? [])
    if (other.in === 'query' && other.required && other.name !== c.parameter.name)
      query.append(other.name, documentedValue(other));
  // Operations outside the API base path carry their own server.
  const base = c.operation.servers ? c.operation.servers[0]!.url.replace(/\/$/, '') : t.config.BASE_PATH;
  return t.app.inject({
    method: c.method as 'GET',
    url: `${base}${path}?${query}`,
    headers: {
      'x-correlation-id': randomUUID(),
      client_id: t.storefront.clientId,
      client_secret: t.storefront.clientSecret,
    },
  });
}

describe('integer query parameters written as text', () => {
  it('are found on every route that declares one, the four known among them', () => {
    expect(cases.map((c) => `${c.method} ${c.path} ${c.parameter.name}`)).toEqual(
      expect.arrayContaining([
        'GET /events limit',
        'GET /webhook-endpoints/{id}/deliveries limit',
        'GET /remittances limit',
        'GET /remittances/{batchId} limit',
      ]),
    );
  });

  it('are taken on every such route at their default and their bounds, and anything else is refused naming them', async () => {
    for (const c of cases) {
      const schema = integerMember(c.parameter.schema)!;
      const valid = [schema.default, schema.minimum, schema.maximum, 1].filter((v) => v !== undefined).map(String);
      for (const value of new Set(valid)) {
        const response = await send(c, value);
        expect(response.statusCode, `${c.method} ${c.path}?${c.parameter.name}=${value}: ${response.body}`).toBe(200);
      }
      // The same route, reached and validated: text that is not an integer is still refused, naming the parameter.
      for (const text of ['12abc', '1.5', '1e2', ' 7', '']) {
        const response = await send(c, text);
        const where = `${c.method} ${c.path}?${c.parameter.name}=${JSON.stringify(text)}`;
        expect(response.statusCode, where).toBe(400);
        expect(response.json().error.cause, where).toContain(`query.${c.parameter.name}: must be an integer`);
      }
    }
  });

  it('GET /events?limit=100 and GET /webhook-endpoints/{id}/deliveries?limit=100 answer 200', async () => {
    const events = await t.get('/events', { query: { limit: '100' } });
    expect(events.statusCode, events.body).toBe(200);
    expect(events.json().data.items).toMatchObject({ events: expect.any(Array), hasMore: false });
    const deliveries = await t.get(`/webhook-endpoints/${pathValues.id}/deliveries`, { query: { limit: '100' } });
    expect(deliveries.statusCode, deliveries.body).toBe(200);
    expect(deliveries.json().data.items).toEqual(expect.any(Array));
  });

  it('keeps the range of the schema once converted', async () => {
    for (const limit of ['0', '501', '-1', '999999999999999']) {
      const response = await t.get('/events', { query: { limit } });
      expect(response.statusCode, limit).toBe(400);
      expect(response.json().error.cause, limit).toMatch(/^query\.limit: must be [<>]=/);
    }
  });
});
