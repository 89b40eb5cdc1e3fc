import type { FastifyInstance, FastifyRequest, RouteOptions, preValidationHookHandler } from 'fastify';

/** Text written as an integer: an optional minus and at most 15 digits, so the number is exact. */
const INTEGER_TEXT = /^-?\d{1,15}$/;

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null;

/** `type: 'integer'` (or a list of types with it), or a union or intersection with such a member, at any depth. */
function acceptsInteger(schema: unknown): boolean {
  if (!isNode(schema)) return false;
  const type = schema.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) return true;
  return ['anyOf', 'oneOf', 'allOf'].some(
    (keyword) => Array.isArray(schema[keyword]) && (schema[keyword] as unknown[]).some(acceptsInteger),
  );
}

/** The properties of a querystring schema that take an integer (its own, and those of unions or intersections). */
function integerProperties(schema: unknown): string[] {
  if (!isNode(schema)) return [];
  const own = isNode(schema.properties)
    ? Object.entries(schema.properties)
        .filter(([, property]) => acceptsInteger(property))
        .map(([name]) => name)
    : [];
  const nested = ['anyOf', 'oneOf', 'allOf'].flatMap((keyword) =>
    Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]).flatMap(integerProperties) : [],
  );
  return [...new Set([...own, ...nested])];
}

/**
 * The validator does not coerce types (a JSON body must carry real numbers), but a query string only has text:
 * this turns the named parameters into numbers when they are written as integers, so the schema checks their
 * range, and anything else is still refused naming the parameter ("must be an integer").
 */
function convertIntegers(names: string[]): preValidationHookHandler {
  return (request: FastifyRequest, _reply, done) => {
    const query = request.query as Record<string, unknown>;
    for (const name of names) {
      const value = query[name];
      if (typeof value === 'string' && INTEGER_TEXT.test(value)) query[name] = Number(value);
    }
    done();
  };
}

/**
 * Every route whose querystring schema declares integer parameters gets the conversion above as its first
 * preValidation hook, read from the schema itself: a route cannot forget to opt in. Registered before the routes.
 */
export function convertIntegerQueriesOfEveryRoute(app: FastifyInstance) {
  app.addHook('onRoute', (route: RouteOptions) => {
    // Fastify takes the querystring schema under either name.
    const schema = route.schema as Record<string, unknown> | undefined;
    const names = integerProperties(schema?.querystring ?? schema?.query);
    if (names.length === 0) return;
    const existing = route.preValidation;
    route.preValidation = [convertIntegers(names), ...(existing ? [existing].flat() : [])];
  });
}
