import type { FastifyRequest } from 'fastify';

/**
 * The validator does not coerce types (a JSON body must carry real numbers), but a query string only has text:
 * this preValidation hook turns the named parameters into numbers when they are written as integers, so the
 * schema checks their range, and anything else is still refused naming the parameter ("must be an integer").
 */
export function integerQuery(...names: string[]) {
  return async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    for (const name of names) {
      const value = query[name];
      if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) query[name] = Number(value);
    }
  };
}
