import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheSerializers } from '../../src/http/schemas/compiler-cache.js';

/** A Fastify app whose serializers go through the cache, counting what the wrapped compiler really compiled. */
function appCountingCompiles() {
  const compiled: unknown[] = [];
  const counting: Parameters<typeof cacheSerializers>[0] = (external, options) => {
    const compile = SerializerSelector()(external, options);
    return (route) => {
      compiled.push(route.schema);
      return compile(route);
    };
  };
  const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: cacheSerializers(counting) } } });
  return { app, compiled };
}

const envelope = (description: string) => ({
  type: 'object',
  description,
  examples: [{ code: description }],
  properties: { code: { type: 'string' } },
});

let close: (() => Promise<unknown>) | undefined;
afterEach(() => close?.());

describe('response serializers compiled once per distinct schema', () => {
  it('compiles a schema that differs only in its documentation once, and each route still answers', async () => {
    const { app, compiled } = appCountingCompiles();
    close = () => app.close();
    for (const name of ['a', 'b', 'c'])
      app.get(`/${name}`, { schema: { response: { 400: envelope(`route ${name}`) } } }, (_req, reply) =>
        reply.code(400).send({ code: name, internal: 'dropped by the schema' }),
      );
    for (const name of ['a', 'b', 'c']) {
      const res = await app.inject(`/${name}`);
      expect(res.json()).toEqual({ code: name });
    }
    expect(compiled).toHaveLength(1);
  });

  it('keeps apart schemas that differ in a field named like a documentation keyword', async () => {
    const { app, compiled } = appCountingCompiles();
    close = () => app.close();
    const withField = (type: string) => ({ type: 'object', properties: { description: { type } } });
    app.get('/text', { schema: { response: { 200: withField('string') } } }, () => ({ description: 12 }));
    app.get('/number', { schema: { response: { 200: withField('integer') } } }, () => ({ description: 12 }));
    expect((await app.inject('/text')).json()).toEqual({ description: '12' });
    expect((await app.inject('/number')).json()).toEqual({ description: 12 });
    expect(compiled).toHaveLength(2);
  });

  it('keeps apart schemas that differ in what they serialize', async () => {
    const { app, compiled } = appCountingCompiles();
    close = () => app.close();
    const only = (field: string) => ({
      type: 'object',
      description: 'same',
      properties: { [field]: { type: 'string' } },
    });
    app.get('/x', { schema: { response: { 200: only('x') } } }, () => ({ x: '1', y: '2' }));
    app.get('/y', { schema: { response: { 200: only('y') } } }, () => ({ x: '1', y: '2' }));
    expect((await app.inject('/x')).json()).toEqual({ x: '1' });
    expect((await app.inject('/y')).json()).toEqual({ y: '2' });
    expect(compiled).toHaveLength(2);
  });
});
