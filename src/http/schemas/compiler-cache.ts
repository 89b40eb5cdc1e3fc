import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildSerializer = NonNullable<CompilersFactory['buildSerializer']>;

/**
 * Fastify's serializer compiler, remembering what it compiled: the same response schema compiles to the same
 * serializer once per application instead of once per route and status. Every operation answers its errors with
 * the same envelope schema (only the examples and descriptions differ, which fast-json-stringify ignores), so most
 * response schemas are repeats; compiling every one took an eighth of the service's start-up CPU, half of it for
 * nothing (docs/decisions/0049-a-faster-service-start.md). A serializer is a pure function of its schema and the
 * shared schemas, so one serves every route that has the same schema. Fastify builds one factory per application
 * (and per encapsulated context with its own shared schemas): each gets its own cache.
 */
export const cachingSerializerFactory = cacheSerializers(SerializerSelector());

/** Wraps a serializer factory so that each of its compilers compiles a given schema once. */
export function cacheSerializers(buildSerializer: BuildSerializer): BuildSerializer {
  return (externalSchemas, serializerOptions) => {
    const compile = buildSerializer(externalSchemas, serializerOptions);
    const compiled = new Map<string, ReturnType<typeof compile>>();
    return (route) => {
      const key = JSON.stringify(route.schema, withoutDocumentation);
      let serializer = compiled.get(key);
      if (!serializer) {
        serializer = compile(route);
        compiled.set(key, serializer);
      }
      return serializer;
    };
  };
}

/**
 * Keywords that only document a schema: two schemas differing in them serialize alike. Told from a field of the same
 * name in `properties` by the value: a field's is a schema (an object), the keyword's a string or a list.
 */
function withoutDocumentation(key: string, value: unknown) {
  if ((key === 'description' || key === 'title' || key === '$comment') && typeof value === 'string') return undefined;
  if (key === 'examples' && Array.isArray(value)) return undefined;
  return value;
}
